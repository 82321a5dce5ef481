import type { FederationForm } from './federation-state';
import { blankForm } from './federation-state';

/** The seed proposal's worked examples (docs/engines/federation.md §4), to load into the form in one click. */
export interface FederationPreset {
  key: string;
  label: string;
  form: Partial<FederationForm> & Pick<FederationForm, 'clusters'>;
}

export const federationPresets: readonly FederationPreset[] = [
  {
    key: 'init-duplicated',
    label: '§4.1 Initial assignment, Duplicated (min 3, max 10)',
    form: {
      tab: 'assign',
      policy: 'Duplicated',
      fmin: 3,
      fmax: 10,
      clusters: [
        { name: 'member1', replicas: 1 },
        { name: 'member2', replicas: 4 },
        { name: 'member3', replicas: 20 },
        { name: 'member4', replicas: 5, off: true },
        { name: 'member5' },
      ],
    },
  },
  {
    key: 'init-static',
    label: '§4.2 Initial assignment, StaticWeighted (min 2, max 10, weights 1:2:3)',
    form: {
      tab: 'assign',
      policy: 'StaticWeighted',
      fmin: 2,
      fmax: 10,
      clusters: [
        { name: 'member1', replicas: 1, weight: 1 },
        { name: 'member2', replicas: 4, weight: 2 },
        { name: 'member3', weight: 3 },
      ],
    },
  },
  {
    key: 'init-dynamic',
    label: '§4.3 Initial assignment, DynamicWeighted (min 8, max 24, available 1:5:2)',
    form: {
      tab: 'assign',
      policy: 'DynamicWeighted',
      fmin: 8,
      fmax: 24,
      clusters: [
        { name: 'member1', available: 1 },
        { name: 'member2', available: 5 },
        { name: 'member3', available: 2 },
      ],
    },
  },
  {
    key: 'init-aggregated',
    label: '§4.4 Initial assignment, Aggregated (min 8, max 24, available 8/2/2)',
    form: {
      tab: 'assign',
      policy: 'Aggregated',
      fmin: 8,
      fmax: 24,
      clusters: [
        { name: 'member1', available: 8 },
        { name: 'member2', available: 2 },
        { name: 'member3', available: 2 },
      ],
    },
  },
  {
    key: 'init-prioritized',
    label: '§4.5 Initial assignment, Prioritized (min 8, max 24)',
    form: {
      tab: 'assign',
      policy: 'Prioritized',
      fmin: 8,
      fmax: 24,
      clusters: [
        { name: 'member1', replicas: 15, priority: 2, available: 20 },
        { name: 'member2', priority: 1, available: 1 },
        { name: 'member3' },
      ],
    },
  },
  {
    key: 'scale-up-static',
    label: '§4.6 Scale up, StaticWeighted (weights 3:1)',
    form: {
      tab: 'scale-up',
      policy: 'StaticWeighted',
      target: 50,
      blocked: 0,
      clusters: [
        { name: 'cluster1', replicas: 4, max: 4, utilization: 100 },
        { name: 'cluster2', replicas: 8, max: 100, utilization: 50, weight: 3 },
        { name: 'cluster3', replicas: 8, max: 100, utilization: 50, weight: 1 },
      ],
    },
  },
  {
    key: 'scale-up-prioritized',
    label: '§4.6 Scale up, Prioritized',
    form: {
      tab: 'scale-up',
      policy: 'Prioritized',
      target: 50,
      blocked: 0,
      clusters: [
        { name: 'cluster1', replicas: 4, max: 4, utilization: 100, priority: 1 },
        { name: 'cluster2', replicas: 9, max: 100, utilization: 50, available: 3, priority: 2 },
        { name: 'cluster3', replicas: 3, max: 100, utilization: 50, available: 1, priority: 1 },
      ],
    },
  },
  {
    key: 'scale-down',
    label: '§4.7 Prioritized scale-down (all at 25 % of a 50 % target)',
    form: {
      tab: 'scale-down',
      policy: 'Prioritized',
      target: 50,
      clusters: [
        { name: 'cluster1', replicas: 4, min: 1, max: 4, utilization: 25, priority: 3 },
        { name: 'cluster2', replicas: 9, min: 1, max: 100, utilization: 25, priority: 2 },
        { name: 'cluster3', replicas: 4, min: 1, max: 100, utilization: 25, priority: 1 },
      ],
    },
  },
  {
    key: 'period',
    label: '§4.8 Period optimization, StaticWeighted (weights 2:1:1)',
    form: {
      tab: 'optimize',
      optimize: 'period',
      policy: 'StaticWeighted',
      clusters: [
        { name: 'cluster1', replicas: 6, max: 7, weight: 2 },
        { name: 'cluster2', replicas: 6, max: 8, weight: 1 },
        { name: 'cluster3', replicas: 6, max: 7, weight: 1 },
      ],
    },
  },
  {
    key: 'trigger',
    label: '§4.9 Trigger optimization, StaticWeighted (3 pending)',
    form: {
      tab: 'optimize',
      optimize: 'trigger',
      policy: 'StaticWeighted',
      blocked: 0,
      clusters: [
        { name: 'cluster1', replicas: 8, max: 10, pending: 3, weight: 1 },
        { name: 'cluster2', replicas: 7, max: 7, weight: 1 },
        { name: 'cluster3', replicas: 7, max: 7, weight: 1 },
      ],
    },
  },
  {
    key: 'to-zero',
    label: '§4.10 Scale to zero, StaticWeighted (federated min 2)',
    form: {
      tab: 'zero',
      zero: 'to',
      policy: 'StaticWeighted',
      fmin: 2,
      clusters: [
        { name: 'member1', replicas: 1, min: 1, weight: 1 },
        { name: 'member2', replicas: 1, min: 1, weight: 2 },
        { name: 'member3', replicas: 1, min: 1, weight: 3 },
      ],
    },
  },
  {
    key: 'from-zero',
    label: '§4.10 Scale from zero, Prioritized',
    form: {
      tab: 'zero',
      zero: 'from',
      policy: 'Prioritized',
      clusters: [
        { name: 'c1', replicas: 1, min: 1, priority: 3 },
        { name: 'c2', replicas: 0, min: 1, priority: 2 },
        { name: 'c3', replicas: 0, min: 1, priority: 1 },
      ],
    },
  },
];

/** A preset applied to a blank form (the seed's policies, no live object). */
export function formFromPreset(preset: FederationPreset): FederationForm {
  return { ...blankForm(), model: 'seed', ...preset.form, clusters: preset.form.clusters.map((c) => ({ ...c })) };
}
