import type {
  FederationOperation,
  FederationPreviewInputs,
  KarmadaStrategy,
  LegacyVariant,
  ReplicaDivider,
  SeedPolicy,
  TieBreak,
} from '@/lib/api';
import { KarmadaStrategySchema, SeedPolicySchema } from '@/lib/api';

/**
 * The federation preview's form: one list of member clusters shared by every tab (each tab shows the columns it
 * needs), a few scalars, and the URL codec that keeps all of it in the address bar.
 */

export const federationTabs = ['assign', 'scale-up', 'scale-down', 'optimize', 'zero'] as const;
export type FederationTab = (typeof federationTabs)[number];

export const federationTabLabel: Record<FederationTab, string> = {
  assign: 'Assignment',
  'scale-up': 'Scale up',
  'scale-down': 'Prioritized scale-down',
  optimize: 'Period / trigger optimization',
  zero: 'Scale to / from zero',
};

export type Model = 'seed' | 'karmada';

export interface FederationCluster {
  name: string;
  /** Not a candidate (assignment tab): kept only as a previous binding entry, so the preview shows it removed. */
  off?: boolean;
  /** Previous binding replicas (assignment), current replicas (the other tabs). */
  replicas?: number;
  min?: number;
  max?: number;
  /** The seed's availableReplicas (capacity for the initial assignment, headroom for scale-up). */
  available?: number;
  /** Karmada's estimator headroom for new replicas (`allocatableReplicas`). */
  allocatable?: number;
  weight?: number;
  priority?: number;
  /** Current utilization, % of the target's unit. */
  utilization?: number;
  pending?: number;
}
export type ClusterField = Exclude<keyof FederationCluster, 'name' | 'off'>;

export interface FederationForm {
  /** The live FederatedHPA the form was filled from, if any. */
  id: string | null;
  tab: FederationTab;
  model: Model;
  /** A SeedPolicy when `model` is seed, a KarmadaStrategy when karmada. */
  policy: string;
  fmin?: number;
  fmax?: number;
  /** Karmada: the template's `spec.replicas` (the desired replicas the scheduler divides). */
  replicas?: number;
  /** Target utilization for scale-up and scale-down. */
  target?: number;
  scaleToZero: boolean;
  tieBreak?: TieBreak;
  uid: string;
  divider: ReplicaDivider;
  legacyVariant?: LegacyVariant;
  mode: 'Steady' | 'Fresh';
  optimize: 'period' | 'trigger';
  zero: 'to' | 'from';
  /** Row index of the blocked cluster (scale-up, trigger optimization). */
  blocked: number;
  clusters: FederationCluster[];
}

/** Field letters in the `c` parameter: `member1~r4~a5,member2~w2`. */
const fieldLetter: Record<ClusterField, string> = {
  replicas: 'r',
  min: 'n',
  max: 'x',
  available: 'a',
  allocatable: 'h',
  weight: 'w',
  priority: 'p',
  utilization: 'u',
  pending: 'q',
};
const letterField = new Map(Object.entries(fieldLetter).map(([f, l]) => [l, f as ClusterField]));

function encodeName(name: string): string {
  return encodeURIComponent(name).replace(/~/g, '%7E');
}

function decodeName(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function encodeClusters(clusters: readonly FederationCluster[]): string {
  return clusters
    .map((c) => {
      const parts = [encodeName(c.name)];
      if (c.off) parts.push('o');
      for (const [field, letter] of Object.entries(fieldLetter) as [ClusterField, string][]) {
        const v = c[field];
        if (v !== undefined) parts.push(`${letter}${v}`);
      }
      return parts.join('~');
    })
    .join(',');
}

export function decodeClusters(text: string | null): FederationCluster[] {
  if (!text) return [];
  return text.split(',').map((row) => {
    const [rawName = '', ...fields] = row.split('~');
    const cluster: FederationCluster = { name: decodeName(rawName) };
    for (const f of fields) {
      if (f === 'o') {
        cluster.off = true;
        continue;
      }
      const field = letterField.get(f.charAt(0));
      const value = Number(f.slice(1));
      if (field && f.length > 1 && Number.isFinite(value)) cluster[field] = value;
    }
    return cluster;
  });
}

const seedPolicies = SeedPolicySchema.options;
const karmadaStrategies = KarmadaStrategySchema.options;

export function isSeedPolicy(p: string): p is SeedPolicy {
  return (seedPolicies as readonly string[]).includes(p);
}

export function isKarmadaStrategy(p: string): p is KarmadaStrategy {
  return (karmadaStrategies as readonly string[]).includes(p);
}

/** The seed policy a Karmada strategy grew out of (§2.6): the other tabs exist only in the seed's design. */
export function seedPolicyOf(form: Pick<FederationForm, 'model' | 'policy'>): SeedPolicy {
  if (form.model === 'seed' && isSeedPolicy(form.policy)) return form.policy;
  switch (form.policy) {
    case 'StaticWeight':
      return 'StaticWeighted';
    case 'DynamicWeight':
      return 'DynamicWeighted';
    case 'Aggregated':
    case 'Duplicated':
      return form.policy;
    default:
      return 'DynamicWeighted';
  }
}

function int(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function oneOf<T extends string>(text: string | null, options: readonly T[], fallback: T): T {
  return text !== null && (options as readonly string[]).includes(text) ? (text as T) : fallback;
}

export const blankClusters: FederationCluster[] = [{ name: 'member1' }, { name: 'member2' }, { name: 'member3' }];

/** The form a blank start shows: the seed's DynamicWeighted policy over three unnamed-capacity members. */
export function blankForm(): FederationForm {
  return {
    id: null,
    tab: 'assign',
    model: 'seed',
    policy: 'DynamicWeighted',
    fmin: 1,
    fmax: 10,
    target: 50,
    scaleToZero: false,
    uid: '',
    divider: 'webster',
    mode: 'Steady',
    optimize: 'period',
    zero: 'to',
    blocked: 0,
    clusters: blankClusters.map((c) => ({ ...c })),
  };
}

/** Whether the URL carries a form (a reload), as opposed to only `?id=` (a fresh start from a live object). */
export function hasFormInUrl(params: URLSearchParams): boolean {
  return params.has('c');
}

export function readFederationForm(params: URLSearchParams): FederationForm {
  const blank = blankForm();
  if (!hasFormInUrl(params)) return { ...blank, id: params.get('id'), tab: oneOf(params.get('tab'), federationTabs, 'assign') };
  const model = oneOf(params.get('model'), ['seed', 'karmada'] as const, 'seed');
  const rawPolicy = params.get('policy') ?? '';
  const policy =
    model === 'seed' ? (isSeedPolicy(rawPolicy) ? rawPolicy : blank.policy) : isKarmadaStrategy(rawPolicy) ? rawPolicy : 'DynamicWeight';
  const clusters = decodeClusters(params.get('c'));
  const tie = params.get('tie');
  const legacy = params.get('legacy');
  return {
    id: params.get('id'),
    tab: oneOf(params.get('tab'), federationTabs, 'assign'),
    model,
    policy,
    fmin: int(params.get('fmin')),
    fmax: int(params.get('fmax')),
    replicas: int(params.get('replicas')),
    target: int(params.get('target')),
    scaleToZero: params.get('stz') === '1',
    tieBreak: tie === 'nameAsc' || tie === 'nameDesc' ? tie : undefined,
    uid: params.get('uid') ?? '',
    divider: oneOf(params.get('divider'), ['webster', 'legacy'] as const, 'webster'),
    legacyVariant: legacy === 'v1.5' || legacy === 'v1.8' ? legacy : undefined,
    mode: oneOf(params.get('mode'), ['Steady', 'Fresh'] as const, 'Steady'),
    optimize: oneOf(params.get('opt'), ['period', 'trigger'] as const, 'period'),
    zero: oneOf(params.get('zero'), ['to', 'from'] as const, 'to'),
    blocked: Math.max(0, int(params.get('blocked')) ?? 0),
    clusters,
  };
}

/** The URL parameters of a form; null removes a parameter. */
export function federationFormParams(form: FederationForm): Record<string, string | null> {
  const n = (v: number | undefined): string | null => (v === undefined ? null : String(v));
  return {
    id: form.id,
    tab: form.tab === 'assign' ? null : form.tab,
    model: form.model,
    policy: form.policy,
    fmin: n(form.fmin),
    fmax: n(form.fmax),
    replicas: n(form.replicas),
    target: n(form.target),
    stz: form.scaleToZero ? '1' : null,
    tie: form.tieBreak ?? null,
    uid: form.uid || null,
    divider: form.divider === 'webster' ? null : form.divider,
    legacy: form.legacyVariant ?? null,
    mode: form.mode === 'Steady' ? null : form.mode,
    opt: form.optimize === 'period' ? null : form.optimize,
    zero: form.zero === 'to' ? null : form.zero,
    blocked: form.blocked ? String(form.blocked) : null,
    c: encodeClusters(form.clusters),
  };
}

/** Fills the form from a live FederatedHPA: the shipped scheduler's inputs, plus the seed's with the same clusters. */
export function formFromLive(inputs: FederationPreviewInputs, base: FederationForm): FederationForm {
  const a = inputs.assignReplicas;
  const seed = inputs.initialAssignment;
  const names: string[] = [];
  const add = (name: string): void => {
    if (!names.includes(name)) names.push(name);
  };
  a.candidates.forEach((c) => add(c.name));
  seed.clusters.forEach((c) => add(c.name));
  const candidates = new Set(a.candidates.map((c) => c.name));
  seed.clusters.forEach((c) => candidates.add(c.name));
  a.previousClusters.forEach((c) => add(c.name));
  const clusters = names.map((name): FederationCluster => {
    const cand = a.candidates.find((c) => c.name === name);
    const s = seed.clusters.find((c) => c.name === name);
    const prev = a.previousClusters.find((c) => c.name === name)?.replicas ?? s?.prevReplicas;
    const out: FederationCluster = { name };
    if (!candidates.has(name)) out.off = true;
    if (prev !== undefined) out.replicas = prev;
    if (s?.availableReplicas !== undefined) out.available = s.availableReplicas;
    if (cand?.allocatableReplicas !== undefined) out.allocatable = cand.allocatableReplicas;
    const weight = cand?.staticWeight ?? s?.staticWeight;
    if (weight !== undefined) out.weight = weight;
    if (s?.priority !== undefined) out.priority = s.priority;
    return out;
  });
  return {
    ...base,
    id: inputs.id,
    tab: 'assign',
    model: 'karmada',
    policy: a.strategy,
    fmin: seed.federatedMinReplicas,
    fmax: seed.federatedMaxReplicas,
    replicas: a.replicas,
    scaleToZero: seed.scaleToZero ?? false,
    tieBreak: seed.tieBreak,
    uid: a.uid,
    divider: a.divider ?? 'webster',
    legacyVariant: a.legacyVariant,
    mode: a.mode ?? 'Steady',
    blocked: 0,
    clusters,
  };
}

/** Which operation a form asks for. */
export function operationOf(form: FederationForm): FederationOperation {
  switch (form.tab) {
    case 'assign':
      return form.model === 'karmada' ? 'assign-replicas' : 'initial-assignment';
    case 'scale-up':
      return 'scale-up';
    case 'scale-down':
      return 'prioritized-scale-down';
    case 'optimize':
      return form.optimize === 'period' ? 'period-optimization' : 'trigger-optimization';
    case 'zero':
      return form.zero === 'to' ? 'scale-to-zero' : 'scale-from-zero';
  }
}

/** A column of the cluster table. */
export interface ClusterColumn {
  field: ClusterField;
  label: string;
  /** Shown on hover of the header and read by screen readers with the input. */
  help: string;
}

const col = (field: ClusterField, label: string, help: string): ClusterColumn => ({ field, label, help });

/** The policy-specific column of the seed's tabs (what each policy splits by). */
function policyColumns(policy: SeedPolicy, availableHelp: string): ClusterColumn[] {
  switch (policy) {
    case 'StaticWeighted':
      return [col('weight', 'Weight', 'staticWeight')];
    case 'DynamicWeighted':
    case 'Aggregated':
    case 'Duplicated':
      return [col('available', 'Available', availableHelp)];
    case 'Prioritized':
      return [col('priority', 'Priority', 'priority (larger = higher)'), col('available', 'Available', availableHelp)];
  }
}

/** The cluster table's columns for a form (besides name and the candidate box); the blocked cluster's own fields sit above it. */
export function clusterColumns(form: FederationForm): ClusterColumn[] {
  const seed = seedPolicyOf(form);
  switch (form.tab) {
    case 'assign':
      if (form.model === 'karmada') {
        const strategy = form.policy;
        return [
          col('replicas', 'Previous', 'replicas in the live binding (spec.clusters)'),
          ...(strategy === 'StaticWeight' ? [col('weight', 'Weight', 'staticWeightList weight')] : []),
          ...(strategy === 'DynamicWeight' || strategy === 'Aggregated'
            ? [col('allocatable', 'Headroom', 'estimator headroom for new replicas (allocatableReplicas)')]
            : []),
        ];
      }
      return [
        col('replicas', 'Previous', 'replicas in the previous binding (prevReplicas)'),
        ...policyColumns(seed, 'availableReplicas (capacity)'),
      ];
    case 'scale-up':
      return [
        col('replicas', 'Current', 'current replicas'),
        col('max', 'Max', 'HPA maxReplicas'),
        ...(seed === 'StaticWeighted' ? policyColumns(seed, '') : policyColumns(seed, 'availableReplicas (headroom)')),
      ];
    case 'scale-down':
      return [
        col('replicas', 'Current', 'current replicas'),
        col('min', 'Min', 'HPA minReplicas'),
        col('max', 'Max', 'HPA maxReplicas'),
        col('utilization', 'Util %', 'current utilization'),
        col('priority', 'Priority', 'priority (larger = higher)'),
      ];
    case 'optimize':
      return [
        col('replicas', 'Current', 'current replicas'),
        col('max', 'Max', 'HPA maxReplicas'),
        ...policyColumns(seed, 'availableReplicas'),
      ];
    case 'zero':
      return [
        col('replicas', 'Replicas', 'replicas now'),
        col('min', 'Min', 'HPA minReplicas'),
        ...policyColumns(seed, 'availableReplicas'),
      ];
  }
}

/** Whether the tab picks one blocked cluster (its pending pods, and for trigger optimization its minReplicas, are asked apart). */
export function hasBlocked(form: FederationForm): boolean {
  return form.tab === 'scale-up' || (form.tab === 'optimize' && form.optimize === 'trigger');
}

/** Where a 400's issue path points in the form. */
export type FieldRef = { kind: 'cell'; row: number; field: ClusterField | 'name' } | { kind: 'scalar'; key: ScalarKey } | { kind: 'form' };
export type ScalarKey = 'fmin' | 'fmax' | 'replicas' | 'target' | 'uid' | 'policy' | 'clusters';

const bodyField: Record<string, ClusterField | 'name'> = {
  name: 'name',
  prevReplicas: 'replicas',
  currentReplicas: 'replicas',
  replicas: 'replicas',
  availableReplicas: 'available',
  allocatableReplicas: 'allocatable',
  staticWeight: 'weight',
  priority: 'priority',
  currentUtilization: 'utilization',
  pendingReplicas: 'pending',
  minReplicas: 'min',
  maxReplicas: 'max',
};

const bodyScalar: Record<string, ScalarKey> = {
  federatedMinReplicas: 'fmin',
  federatedMaxReplicas: 'fmax',
  replicas: 'replicas',
  targetUtilization: 'target',
  uid: 'uid',
  policy: 'policy',
  strategy: 'policy',
};

export interface FederationRequest {
  operation: FederationOperation;
  body: Record<string, unknown>;
  /** Maps an issue path (`clusters.1.availableReplicas`) back to the input it came from. */
  locate: (path: string) => FieldRef;
}

/** Drops undefined values so the body (and the query key) is the JSON that travels. */
function clean<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function makeLocate(arrays: Record<string, readonly number[]>, single: Record<string, number>): (path: string) => FieldRef {
  return (path) => {
    const segs = path.split('.');
    const head = segs[0] ?? '';
    const rows = arrays[head];
    if (rows) {
      const row = rows[Number(segs[1])];
      if (row === undefined) return { kind: 'scalar', key: 'clusters' };
      return { kind: 'cell', row, field: bodyField[segs[2] ?? ''] ?? 'name' };
    }
    const one = single[head];
    if (one !== undefined) return { kind: 'cell', row: one, field: bodyField[segs[1] ?? ''] ?? 'name' };
    const scalar = bodyScalar[head];
    return scalar ? { kind: 'scalar', key: scalar } : { kind: 'form' };
  };
}

/** The request a form stands for: operation, body and the way back from issue paths to inputs. */
export function federationRequest(form: FederationForm): FederationRequest {
  const operation = operationOf(form);
  const policy = seedPolicyOf(form);
  const all = form.clusters.map((c, i) => ({ c, i }));
  const on = all.filter(({ c }) => !c.off || form.tab !== 'assign');
  const blocked = hasBlocked(form) ? Math.min(form.blocked, Math.max(0, form.clusters.length - 1)) : -1;
  const others = on.filter(({ i }) => i !== blocked);
  const weighting = (c: FederationCluster) => ({ staticWeight: c.weight, availableReplicas: c.available, priority: c.priority });
  const ties = { tieBreak: form.tieBreak, uid: form.uid || undefined };

  switch (operation) {
    case 'initial-assignment': {
      const prev = all.filter(({ c }) => (c.replicas ?? 0) > 0);
      return {
        operation,
        body: clean({
          policy,
          federatedMinReplicas: form.fmin,
          federatedMaxReplicas: form.fmax,
          scaleToZero: form.scaleToZero,
          ...clean(ties),
          clusters: on.map(({ c }) => clean({ name: c.name, prevReplicas: c.replicas, ...weighting(c) })),
          previousBinding: prev.length ? prev.map(({ c }) => ({ name: c.name, replicas: c.replicas })) : undefined,
        }),
        locate: makeLocate({ clusters: on.map((x) => x.i), previousBinding: prev.map((x) => x.i) }, {}),
      };
    }
    case 'assign-replicas': {
      const prev = all.filter(({ c }) => (c.replicas ?? 0) > 0);
      return {
        operation,
        body: clean({
          strategy: form.policy,
          replicas: form.replicas,
          candidates: on.map(({ c }) =>
            clean({
              name: c.name,
              staticWeight: form.policy === 'StaticWeight' ? c.weight : undefined,
              allocatableReplicas: c.allocatable,
            }),
          ),
          previousClusters: prev.map(({ c }) => ({ name: c.name, replicas: c.replicas })),
          uid: form.uid,
          divider: form.divider,
          legacyVariant: form.divider === 'legacy' ? (form.legacyVariant ?? 'v1.5') : undefined,
          mode: form.mode,
        }),
        locate: makeLocate({ candidates: on.map((x) => x.i), previousClusters: prev.map((x) => x.i) }, {}),
      };
    }
    case 'scale-up': {
      const b = form.clusters[blocked];
      return {
        operation,
        body: clean({
          policy,
          targetUtilization: form.target,
          ...clean(ties),
          blockedCluster: b
            ? clean({
                name: b.name,
                currentReplicas: b.replicas,
                maxReplicas: b.max,
                currentUtilization: b.utilization,
                pendingReplicas: b.pending,
              })
            : undefined,
          eligibleClusters: others.map(({ c }) =>
            clean({ name: c.name, currentReplicas: c.replicas, maxReplicas: c.max, ...weighting(c) }),
          ),
        }),
        locate: makeLocate({ eligibleClusters: others.map((x) => x.i) }, { blockedCluster: blocked }),
      };
    }
    case 'prioritized-scale-down':
      return {
        operation,
        body: clean({
          targetUtilization: form.target,
          clusters: on.map(({ c }) =>
            clean({
              name: c.name,
              currentReplicas: c.replicas,
              minReplicas: c.min,
              maxReplicas: c.max,
              currentUtilization: c.utilization,
              priority: c.priority,
            }),
          ),
        }),
        locate: makeLocate({ clusters: on.map((x) => x.i) }, {}),
      };
    case 'period-optimization':
      return {
        operation,
        body: clean({
          policy,
          ...clean(ties),
          clusters: on.map(({ c }) => clean({ name: c.name, currentReplicas: c.replicas, maxReplicas: c.max, ...weighting(c) })),
        }),
        locate: makeLocate({ clusters: on.map((x) => x.i) }, {}),
      };
    case 'trigger-optimization': {
      const b = form.clusters[blocked];
      return {
        operation,
        body: clean({
          policy,
          ...clean(ties),
          blockedCluster: b
            ? clean({
                name: b.name,
                currentReplicas: b.replicas,
                maxReplicas: b.max,
                pendingReplicas: b.pending,
                minReplicas: b.min,
                ...weighting(b),
              })
            : undefined,
          otherClusters: others.map(({ c }) => clean({ name: c.name, currentReplicas: c.replicas, maxReplicas: c.max, ...weighting(c) })),
        }),
        locate: makeLocate({ otherClusters: others.map((x) => x.i) }, { blockedCluster: blocked }),
      };
    }
    case 'scale-to-zero':
    case 'scale-from-zero':
      return {
        operation,
        body: clean({
          policy,
          federatedMinReplicas: operation === 'scale-to-zero' ? form.fmin : undefined,
          clusters: on.map(({ c }) => clean({ name: c.name, replicas: c.replicas, minReplicas: c.min, ...weighting(c) })),
        }),
        locate: makeLocate({ clusters: on.map((x) => x.i) }, {}),
      };
    default:
      return { operation, body: {}, locate: () => ({ kind: 'form' }) };
  }
}
