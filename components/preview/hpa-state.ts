import type { z } from 'zod';
import type { HpaChanges, HpaPreviewRequest, HpaScalingRulesSchema, MetricSpecSchema } from '@/lib/api';

/**
 * The HPA preview's form: edits over a live HPA (absent = keep the live value), the load curve to play, and
 * the URL codec that keeps it all in the address bar.
 */

export type MetricSpec = z.infer<typeof MetricSpecSchema>;
export type ScalingRules = z.infer<typeof HpaScalingRulesSchema>;
export type Behavior = { scaleUp?: ScalingRules | null; scaleDown?: ScalingRules | null };

export const curves = ['off', 'steady', 'ramp', 'spike', 'drop', 'custom'] as const;
export type Curve = (typeof curves)[number];
export const curveLabel: Record<Curve, string> = {
  off: 'No playback',
  steady: 'Steady (today’s load)',
  ramp: 'Ramp to ×2',
  spike: 'Spike (×3 for a while)',
  drop: 'Drop to ×0.3',
  custom: 'Custom factors',
};

export interface PolicyForm {
  type: 'Pods' | 'Percent';
  value?: number;
  period?: number;
}

export interface RulesForm {
  window?: number;
  select: 'Max' | 'Min' | 'Disabled';
  policies: PolicyForm[];
}

export interface HpaForm {
  id: string | null;
  min?: number;
  max?: number;
  /** New target values by metric index (`70`, `500m`); absent = the live target. */
  targets: Record<number, string>;
  /** live: keep `spec.behavior`; none: remove it (the legacy path); custom: `up`/`down`. */
  behavior: 'live' | 'none' | 'custom';
  up: RulesForm;
  down: RulesForm;
  /** Multiplies every observed metric value. */
  load?: number;
  curve: Curve;
  syncs: number;
  every: number;
  /** Custom curve: factors separated by commas or spaces. */
  factors: string;
}

/** autoscaling/v2 defaults (what the API fills in when `behavior` is set without a side). */
export const defaultScaleUp: RulesForm = {
  window: 0,
  select: 'Max',
  policies: [
    { type: 'Pods', value: 4, period: 15 },
    { type: 'Percent', value: 100, period: 15 },
  ],
};
export const defaultScaleDown: RulesForm = { window: 300, select: 'Max', policies: [{ type: 'Percent', value: 100, period: 15 }] };

export function blankHpaForm(id: string | null = null): HpaForm {
  return {
    id,
    targets: {},
    behavior: 'live',
    up: defaultScaleUp,
    down: defaultScaleDown,
    curve: 'ramp',
    syncs: 20,
    every: 15,
    factors: '1, 1.5, 2, 3, 2, 1, 0.5',
  };
}

function num(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

export function encodeRules(r: RulesForm): string {
  return [r.window ?? '', r.select, ...r.policies.map((p) => `${p.type}.${p.value ?? ''}.${p.period ?? ''}`)].join('~');
}

export function decodeRules(text: string | null, fallback: RulesForm): RulesForm {
  if (!text) return fallback;
  const [window = '', select = 'Max', ...policies] = text.split('~');
  return {
    window: num(window),
    select: select === 'Min' || select === 'Disabled' ? select : 'Max',
    policies: policies.map((p) => {
      const [type, value = '', period = ''] = p.split('.');
      return { type: type === 'Pods' ? 'Pods' : 'Percent', value: num(value), period: num(period) };
    }),
  };
}

export function encodeTargets(targets: Record<number, string>): string | null {
  const entries = Object.entries(targets).filter(([, v]) => v !== '');
  return entries.length ? entries.map(([i, v]) => `${i}:${v}`).join(',') : null;
}

export function decodeTargets(text: string | null): Record<number, string> {
  const out: Record<number, string> = {};
  for (const part of (text ?? '').split(',')) {
    const at = part.indexOf(':');
    if (at < 1) continue;
    const i = Number(part.slice(0, at));
    if (Number.isInteger(i) && i >= 0) out[i] = part.slice(at + 1);
  }
  return out;
}

export function readHpaForm(params: URLSearchParams): HpaForm {
  const blank = blankHpaForm(params.get('id'));
  const beh = params.get('beh');
  const curve = params.get('curve');
  return {
    ...blank,
    min: num(params.get('min')),
    max: num(params.get('max')),
    targets: decodeTargets(params.get('t')),
    behavior: beh === 'none' || beh === 'custom' ? beh : 'live',
    up: decodeRules(params.get('up'), blank.up),
    down: decodeRules(params.get('down'), blank.down),
    load: num(params.get('load')),
    curve: curve && (curves as readonly string[]).includes(curve) ? (curve as Curve) : blank.curve,
    syncs: num(params.get('syncs')) ?? blank.syncs,
    every: num(params.get('every')) ?? blank.every,
    factors: params.get('factors') ?? blank.factors,
  };
}

export function hpaFormParams(form: HpaForm): Record<string, string | null> {
  const blank = blankHpaForm();
  const n = (v: number | undefined): string | null => (v === undefined ? null : String(v));
  return {
    id: form.id,
    min: n(form.min),
    max: n(form.max),
    t: encodeTargets(form.targets),
    beh: form.behavior === 'live' ? null : form.behavior,
    up: form.behavior === 'custom' ? encodeRules(form.up) : null,
    down: form.behavior === 'custom' ? encodeRules(form.down) : null,
    load: n(form.load),
    curve: form.curve === blank.curve ? null : form.curve,
    syncs: form.syncs === blank.syncs ? null : String(form.syncs),
    every: form.every === blank.every ? null : String(form.every),
    factors: form.curve === 'custom' ? form.factors : null,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The load factors of a curve over `n` syncs (1 = today's observed load). */
export function curveFactors(curve: Curve, n: number, custom: string): number[] {
  const count = Math.max(1, Math.min(240, Math.round(n)));
  const at = (f: (i: number) => number): number[] => Array.from({ length: count }, (_, i) => round2(f(i)));
  const quarter = Math.floor(count / 4);
  switch (curve) {
    case 'off':
      return [];
    case 'steady':
      return at(() => 1);
    case 'ramp':
      return at((i) => (count === 1 ? 2 : 1 + i / (count - 1)));
    case 'spike': {
      const width = Math.max(1, Math.floor(count / 5));
      return at((i) => (i >= quarter && i < quarter + width ? 3 : 1));
    }
    case 'drop':
      return at((i) => (i >= quarter ? 0.3 : 1));
    case 'custom':
      return custom
        .split(/[\s,;]+/)
        .filter(Boolean)
        .map(Number)
        .filter((x) => Number.isFinite(x));
  }
}

const sourceKey: Partial<Record<string, 'resource' | 'pods' | 'object' | 'external' | 'containerResource'>> = {
  Resource: 'resource',
  Pods: 'pods',
  Object: 'object',
  External: 'external',
  ContainerResource: 'containerResource',
};

type MetricTarget = NonNullable<MetricSpec['resource']>['target'];

/** The target of a metric, whatever its source. */
export function targetOf(m: MetricSpec): MetricTarget | null {
  const key = sourceKey[m.type];
  return key ? (m[key]?.target ?? null) : null;
}

/** `cpu`, `http_requests_per_second`… */
export function metricName(m: MetricSpec): string {
  return m.resource?.name ?? m.containerResource?.name ?? m.pods?.metric.name ?? m.object?.metric.name ?? m.external?.metric.name ?? m.type;
}

/** The editable value of a target: utilization % for Utilization, else the quantity. */
export function targetValue(t: MetricTarget | null): string {
  if (!t) return '';
  if (t.type === 'Utilization') return t.averageUtilization === undefined ? '' : String(t.averageUtilization);
  if (t.type === 'AverageValue') return t.averageValue ?? '';
  return t.value ?? '';
}

export function withTarget(m: MetricSpec, value: string): MetricSpec {
  const key = sourceKey[m.type];
  const source = key ? m[key] : undefined;
  if (!key || !source) return m;
  const t = source.target;
  const target =
    t.type === 'Utilization'
      ? { ...t, averageUtilization: Number(value) }
      : t.type === 'AverageValue'
        ? { ...t, averageValue: value }
        : { ...t, value };
  return { ...m, [key]: { ...source, target } };
}

export function rulesToApi(r: RulesForm): ScalingRules {
  return {
    ...(r.window !== undefined ? { stabilizationWindowSeconds: r.window } : {}),
    selectPolicy: r.select,
    policies: r.policies.map((p) => ({ type: p.type, value: p.value ?? Number.NaN, periodSeconds: p.period ?? Number.NaN })),
  };
}

export function rulesFromApi(r: ScalingRules | null | undefined, fallback: RulesForm): RulesForm {
  if (!r) return fallback;
  return {
    window: r.stabilizationWindowSeconds ?? undefined,
    select: r.selectPolicy ?? 'Max',
    policies: (r.policies ?? []).map((p) => ({ type: p.type, value: p.value, period: p.periodSeconds })),
  };
}

/** The form keys a 400's issue path points at. */
export function hpaIssueKey(path: string): string | null {
  const segs = path.split('.');
  if (segs[0] === 'changes') {
    if (segs[1] === 'minReplicas') return 'min';
    if (segs[1] === 'maxReplicas') return 'max';
    if (segs[1] === 'metrics') return `t${segs[2] ?? ''}`;
    if (segs[1] === 'behavior') return segs[2] === 'scaleDown' ? 'down' : 'up';
    if (segs[1] === 'loadFactor') return 'load';
  }
  if (segs[0] === 'playback') return segs[1] === 'intervalSeconds' ? 'every' : 'factors';
  return null;
}

/** The request a form stands for, over the live HPA's metrics. */
export function hpaRequest(form: HpaForm & { id: string }, specMetrics: readonly MetricSpec[]): HpaPreviewRequest {
  const changes: HpaChanges = {};
  if (form.min !== undefined) changes.minReplicas = form.min;
  if (form.max !== undefined) changes.maxReplicas = form.max;
  const edited = Object.entries(form.targets).filter(([i, v]) => v !== '' && specMetrics[Number(i)]);
  if (edited.length)
    changes.metrics = specMetrics.map((m, i) =>
      form.targets[i] !== undefined && form.targets[i] !== '' ? withTarget(m, form.targets[i]) : m,
    );
  if (form.behavior === 'none') changes.behavior = null;
  if (form.behavior === 'custom') changes.behavior = { scaleUp: rulesToApi(form.up), scaleDown: rulesToApi(form.down) };
  if (form.load !== undefined) changes.loadFactor = form.load;
  const factors = curveFactors(form.curve, form.syncs, form.factors);
  return { id: form.id, changes, ...(form.curve !== 'off' ? { playback: { factors, intervalSeconds: form.every } } : {}) };
}

/** One line for a behavior side: `300 s window, Max of 100 % / 15 s`. */
export function describeRules(r: ScalingRules | null | undefined): string {
  if (!r) return 'defaults';
  const policies = (r.policies ?? []).map((p) => `${p.value}${p.type === 'Percent' ? ' %' : ' pods'} / ${p.periodSeconds} s`).join(', ');
  const window = r.stabilizationWindowSeconds ?? null;
  return `${window === null ? 'default window' : `${window} s window`}, ${r.selectPolicy ?? 'Max'}${policies ? ` of ${policies}` : ''}`;
}

export function describeBehavior(b: Behavior | null | undefined): string {
  if (!b) return 'none (legacy path)';
  return `up: ${describeRules(b.scaleUp)}; down: ${describeRules(b.scaleDown)}`;
}
