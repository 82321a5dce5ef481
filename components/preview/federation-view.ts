import type {
  AssignReplicasResult,
  ExplanationField,
  ExplanationStep,
  InitialAssignmentPreview,
  PeriodOptimizationPreview,
  PrioritizedScaleDownPreview,
  ScaleFromZeroPreview,
  ScaleToZeroPreview,
  ScaleUpPreview,
  TriggerOptimizationPreview,
} from '@/lib/api';
import type { FederationAnswer } from '../queries/keys';
import { stepsOf, tracesFor } from './trace';

/**
 * One view of every federation preview: a row per member cluster with the quantity before and after, extra
 * columns (HPA bounds, shares), facts above the table, notes, the explanation and what to export as YAML.
 */

export interface ResultColumn {
  key: string;
  label: string;
  /** The explanation steps computing this column (e.g. `maxReplicas`): a cell traces to them first. */
  field?: ExplanationField;
}

export interface ResultRow {
  cluster: string;
  before: number | null;
  after: number | null;
  cells: Record<string, number | string | null>;
  /** "excluded", "removed", "blocked", "zeroed", "woken", "new". */
  status: string | null;
  /** The explanation steps about this cluster. */
  trace: string[];
}

export interface Fact {
  label: string;
  value: string;
  trace: string[];
}

export interface FederationView {
  /** What the bars and the before/after columns count. */
  quantity: string;
  beforeLabel: string;
  afterLabel: string;
  columns: ResultColumn[];
  rows: ResultRow[];
  /** Show each row's `min`/`max` cells as a range bar (the seed's per-cluster HPA bounds). */
  boundsInChart: boolean;
  facts: Fact[];
  notes: string[];
  /** The engine's explanation steps, as data: cells and facts trace to them by cluster and field. */
  steps: ExplanationStep[];
  /** Their sentences, in order, for the step list. */
  explanation: string[];
  /** An answer that is a result, not a failure (Karmada's "not enough to schedule"). */
  error: string | null;
  warnings: string[];
  exportName: string;
  exportComment: string;
  exportObject: unknown;
}

type Body = Record<string, unknown>;
type Named = { name: string };

function list<T>(body: Body, key: string): T[] {
  const v = body[key];
  return Array.isArray(v) ? (v as T[]) : [];
}

function num(v: unknown): number | null {
  return typeof v === 'number' ? v : null;
}

function union(...lists: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  for (const l of lists) for (const n of l) if (!out.includes(n)) out.push(n);
  return out;
}

function row(
  cluster: string,
  before: number | null,
  after: number | null,
  steps: readonly ExplanationStep[],
  cells: ResultRow['cells'] = {},
  status: string | null = null,
): ResultRow {
  return { cluster, before, after, cells, status, trace: tracesFor(steps, cluster) };
}

const seedNote = 'The seed proposal never shipped: this is its design, recomputed with the rules of docs/engines/federation.md §5.';

function initialAssignment(body: Body, r: InitialAssignmentPreview): FederationView {
  const clusters = list<Named & { prevReplicas?: number }>(body, 'clusters');
  const previous = list<Named & { replicas: number }>(body, 'previousBinding');
  const binding = new Map(r.resourceBinding.map((c) => [c.name, c.replicas]));
  const names = union(
    clusters.map((c) => c.name),
    previous.map((c) => c.name),
  );
  const prevOf = (n: string): number =>
    previous.find((p) => p.name === n)?.replicas ?? clusters.find((c) => c.name === n)?.prevReplicas ?? 0;
  const rows = names.map((n) => {
    const hpa = r.hpa[n];
    const status = r.excludedClusters.includes(n)
      ? 'excluded'
      : r.removedFromBinding.includes(n)
        ? 'removed'
        : prevOf(n) === 0 && binding.has(n)
          ? 'new'
          : null;
    return row(n, prevOf(n), binding.get(n) ?? 0, r.steps, { min: hpa?.minReplicas ?? null, max: hpa?.maxReplicas ?? null }, status);
  });
  const sum = (f: (x: ResultRow) => number | string | null): number =>
    rows.reduce((s, x) => s + (typeof f(x) === 'number' ? (f(x) as number) : 0), 0);
  const fmin = num(body.federatedMinReplicas);
  const fmax = num(body.federatedMaxReplicas);
  const warnings = [
    ...r.excludedClusters.map(
      (n) => `${n} is excluded: it gets no member HPA (its maxReplicas share is 0, or it has no matching preference).`,
    ),
    ...r.removedFromBinding.map((n) => `${n} is removed from the binding (not selected any more).`),
  ];
  return {
    quantity: 'Binding replicas',
    beforeLabel: 'Previous binding',
    afterLabel: 'New binding',
    columns: [
      { key: 'min', label: 'HPA min', field: 'minReplicas' },
      { key: 'max', label: 'HPA max', field: 'maxReplicas' },
    ],
    rows,
    boundsInChart: true,
    facts: [
      {
        label: 'Σ HPA min',
        value: `${sum((x) => x.cells.min ?? null)}${fmin !== null ? ` (federated ${fmin})` : ''}`,
        trace: stepsOf(r.steps, 'minReplicas'),
      },
      {
        label: 'Σ HPA max',
        value: `${sum((x) => x.cells.max ?? null)}${fmax !== null ? ` (federated ${fmax})` : ''}`,
        trace: stepsOf(r.steps, 'maxReplicas'),
      },
      { label: 'Σ binding', value: String(sum((x) => x.after)), trace: stepsOf(r.steps, 'binding') },
    ],
    notes: r.notes,
    steps: r.steps,
    explanation: r.explanation,
    error: null,
    warnings,
    exportName: 'federatedhpa-seed-assignment.yaml',
    exportComment: seedNote,
    exportObject: {
      policy: body.policy,
      federatedMinReplicas: body.federatedMinReplicas,
      federatedMaxReplicas: body.federatedMaxReplicas,
      scaleToZero: body.scaleToZero ?? false,
      memberHPAs: Object.fromEntries(
        Object.entries(r.hpa).map(([n, b]) => [n, { minReplicas: b.minReplicas, maxReplicas: b.maxReplicas }]),
      ),
      resourceBinding: { spec: { clusters: r.resourceBinding } },
    },
  };
}

function assignReplicas(body: Body, r: AssignReplicasResult): FederationView {
  const candidates = list<Named>(body, 'candidates');
  const previous = list<Named & { replicas: number }>(body, 'previousClusters');
  const ok = 'clusters' in r ? r : null;
  const refusal = 'error' in r ? r.error : null;
  const after = new Map((ok?.clusters ?? []).map((c) => [c.name, c.replicas]));
  const steps: ExplanationStep[] =
    ok?.steps ??
    (refusal
      ? [{ text: `karmada-scheduler stops: ${refusal} The binding keeps its previous result.`, clusters: [], field: 'result' }]
      : []);
  const explanation = steps.map((x) => x.text);
  const names = union(
    candidates.map((c) => c.name),
    previous.map((c) => c.name),
  );
  const candidateSet = new Set(candidates.map((c) => c.name));
  const rows = names.map((n) => {
    const before = previous.find((p) => p.name === n)?.replicas ?? 0;
    const status = !candidateSet.has(n)
      ? 'not a candidate'
      : ok && !after.has(n) && before > 0
        ? 'removed'
        : before === 0 && after.has(n)
          ? 'new'
          : null;
    return row(n, before, ok ? (after.get(n) ?? 0) : null, steps, {}, status);
  });
  const total = (ok?.clusters ?? []).reduce((s, c) => s + c.replicas, 0);
  return {
    quantity: 'Replicas',
    beforeLabel: 'Live binding',
    afterLabel: 'After scheduling',
    columns: [],
    rows,
    boundsInChart: false,
    facts: [
      {
        label: 'spec.replicas',
        value: typeof body.replicas === 'number' || typeof body.replicas === 'string' ? String(body.replicas) : '—',
        trace: [],
      },
      { label: 'Σ live binding', value: String(previous.reduce((s, c) => s + c.replicas, 0)), trace: explanation.slice(0, 1) },
      ...(ok ? [{ label: 'Σ after', value: String(total), trace: explanation }] : []),
    ],
    notes: ok?.notes ?? [],
    steps,
    explanation,
    error: refusal,
    warnings: rows
      .filter((x) => x.status === 'not a candidate')
      .map((x) => `${x.cluster} is in the live binding but not a candidate (not Ready or not matched): the scheduler drops it.`),
    exportName: 'resourcebinding-clusters.yaml',
    exportComment: refusal
      ? `karmada-scheduler would refuse (${refusal}); the binding keeps its previous spec.clusters`
      : 'karmada-scheduler result: the ResourceBinding spec.clusters (replicas 0 omitted, as the API does)',
    exportObject: {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      spec: { replicas: body.replicas, clusters: ok ? ok.clusters.filter((c) => c.replicas > 0) : previous },
    },
  };
}

function scaleUp(body: Body, r: ScaleUpPreview): FederationView {
  const blocked = (body.blockedCluster ?? {}) as Named & { currentReplicas?: number; maxReplicas?: number };
  const eligible = list<Named & { currentReplicas: number; maxReplicas: number }>(body, 'eligibleClusters');
  const rows: ResultRow[] = [
    row(
      blocked.name,
      blocked.currentReplicas ?? null,
      blocked.currentReplicas ?? null,
      r.steps,
      { max: blocked.maxReplicas ?? null, increment: 0 },
      'blocked',
    ),
    ...eligible.map((c) => {
      const inc = r.increments[c.name] ?? 0;
      return row(c.name, c.currentReplicas, c.currentReplicas + inc, r.steps, { max: c.maxReplicas, increment: inc });
    }),
  ];
  return {
    quantity: 'Replicas',
    beforeLabel: 'Now',
    afterLabel: 'After the scale-up',
    columns: [
      { key: 'max', label: 'Max' },
      { key: 'increment', label: 'Added', field: 'increments' },
    ],
    rows,
    boundsInChart: false,
    facts: [
      { label: `${blocked.name} wants`, value: String(r.blockedDesiredReplicas), trace: stepsOf(r.steps, 'deficit') },
      { label: 'Deficit', value: String(r.deficit), trace: stepsOf(r.steps, 'deficit') },
      { label: 'Unplaced', value: String(r.unplaced), trace: stepsOf(r.steps, 'increments') },
    ],
    notes: r.notes,
    steps: r.steps,
    explanation: r.explanation,
    error: null,
    warnings: r.unplaced > 0 ? [`${r.unplaced} of ${r.deficit} replicas find no room in the other clusters.`] : [],
    exportName: 'federatedhpa-seed-scale-up.yaml',
    exportComment: seedNote,
    exportObject: { scaleUp: { blockedCluster: blocked.name, deficit: r.deficit, increments: r.increments, unplaced: r.unplaced } },
  };
}

function scaleDown(body: Body, r: PrioritizedScaleDownPreview): FederationView {
  const clusters = list<Named & { currentReplicas: number; minReplicas: number; priority: number }>(body, 'clusters');
  const final = new Map(r.final.map((c) => [c.name, c.replicas]));
  const rows = clusters.map((c) =>
    row(c.name, c.currentReplicas, final.get(c.name) ?? c.currentReplicas, r.steps, {
      priority: c.priority,
      min: c.minReplicas,
      order: r.removalOrder.includes(c.name) ? r.removalOrder.indexOf(c.name) + 1 : null,
    }),
  );
  return {
    quantity: 'Replicas',
    beforeLabel: 'Now',
    afterLabel: 'After the scale-down',
    columns: [
      { key: 'priority', label: 'Priority' },
      { key: 'min', label: 'Min' },
      { key: 'order', label: 'Removal order' },
    ],
    rows,
    boundsInChart: false,
    facts: [
      { label: 'Total load', value: String(r.totalLoad), trace: stepsOf(r.steps, 'totalLoad') },
      { label: 'Total desired', value: String(r.totalDesiredReplicas), trace: stepsOf(r.steps, 'totalDesired') },
      { label: 'Excess', value: String(r.excessReplicas), trace: stepsOf(r.steps, 'totalDesired', 'excess') },
    ],
    notes: r.notes,
    steps: r.steps,
    explanation: r.explanation,
    error: null,
    warnings: [],
    exportName: 'federatedhpa-seed-scale-down.yaml',
    exportComment: seedNote,
    exportObject: { prioritizedScaleDown: { removalOrder: r.removalOrder, final: r.final } },
  };
}

function periodOptimization(body: Body, r: PeriodOptimizationPreview): FederationView {
  const clusters = list<Named & { currentReplicas: number; maxReplicas: number }>(body, 'clusters');
  const rows = clusters.map((c) =>
    row(c.name, c.maxReplicas, r.newMax[c.name] ?? c.maxReplicas, r.steps, { current: c.currentReplicas, share: r.shares[c.name] ?? 0 }),
  );
  return {
    quantity: 'maxReplicas',
    beforeLabel: 'maxReplicas now',
    afterLabel: 'New maxReplicas',
    columns: [
      { key: 'current', label: 'Current' },
      { key: 'share', label: 'Share of pool', field: 'pool' },
    ],
    rows,
    boundsInChart: false,
    facts: [{ label: 'Pool Σ(max − current)', value: String(r.pool), trace: stepsOf(r.steps, 'pool') }],
    notes: r.notes,
    steps: r.steps,
    explanation: r.explanation,
    error: null,
    warnings: [],
    exportName: 'federatedhpa-seed-period-optimization.yaml',
    exportComment: seedNote,
    exportObject: { memberHPAs: Object.fromEntries(Object.entries(r.newMax).map(([n, max]) => [n, { maxReplicas: max }])) },
  };
}

function triggerOptimization(body: Body, r: TriggerOptimizationPreview): FederationView {
  const blocked = (body.blockedCluster ?? {}) as Named & { currentReplicas?: number; maxReplicas?: number; pendingReplicas?: number };
  const others = list<Named & { currentReplicas: number; maxReplicas: number }>(body, 'otherClusters');
  const rows: ResultRow[] = [
    row(
      blocked.name,
      blocked.maxReplicas ?? null,
      r.blockedNewMax,
      r.steps,
      { current: blocked.currentReplicas ?? null, pending: blocked.pendingReplicas ?? null, share: null },
      'blocked',
    ),
    ...others.map((c) =>
      row(c.name, c.maxReplicas, r.newMax[c.name] ?? c.maxReplicas, r.steps, {
        current: c.currentReplicas,
        pending: null,
        share: r.shares[c.name] ?? 0,
      }),
    ),
  ];
  return {
    quantity: 'maxReplicas',
    beforeLabel: 'maxReplicas now',
    afterLabel: 'New maxReplicas',
    columns: [
      { key: 'current', label: 'Current' },
      { key: 'pending', label: 'Pending' },
      { key: 'share', label: 'Share of freed', field: 'freed' },
    ],
    rows,
    boundsInChart: false,
    facts: [
      { label: 'Freed', value: String(r.freed), trace: stepsOf(r.steps, 'freed') },
      { label: 'Σ max', value: `${r.sumMaxBefore} → ${r.sumMaxAfter}`, trace: stepsOf(r.steps, 'newMax') },
    ],
    notes: r.notes,
    steps: r.steps,
    explanation: r.explanation,
    error: null,
    warnings: [],
    exportName: 'federatedhpa-seed-trigger-optimization.yaml',
    exportComment: seedNote,
    exportObject: {
      memberHPAs: {
        [blocked.name]: { maxReplicas: r.blockedNewMax },
        ...Object.fromEntries(Object.entries(r.newMax).map(([n, max]) => [n, { maxReplicas: max }])),
      },
    },
  };
}

function zero(body: Body, r: ScaleToZeroPreview | ScaleFromZeroPreview, direction: 'to' | 'from'): FederationView {
  const clusters = list<Named & { replicas: number; minReplicas: number }>(body, 'clusters');
  const after = new Map(r.resourceBinding.map((c) => [c.name, c.replicas]));
  const changed = 'zeroed' in r ? r.zeroed : r.woken;
  const rows = clusters.map((c) =>
    row(
      c.name,
      c.replicas,
      after.get(c.name) ?? c.replicas,
      r.steps,
      { min: c.minReplicas },
      changed.includes(c.name) ? (direction === 'to' ? 'zeroed' : 'woken') : null,
    ),
  );
  return {
    quantity: 'Binding replicas',
    beforeLabel: 'Now',
    afterLabel: direction === 'to' ? 'After scaling to zero' : 'After scaling from zero',
    columns: [{ key: 'min', label: 'Min' }],
    rows,
    boundsInChart: false,
    facts: [{ label: direction === 'to' ? 'Zeroed' : 'Woken', value: changed.join(', ') || 'none', trace: stepsOf(r.steps, 'order') }],
    notes: r.notes,
    steps: r.steps,
    explanation: r.explanation,
    error: null,
    warnings: [],
    exportName: `federatedhpa-seed-scale-${direction}-zero.yaml`,
    exportComment: seedNote,
    exportObject: { resourceBinding: { spec: { clusters: r.resourceBinding } } },
  };
}

/** The view of one preview answer; its `body` is the request it answers (the "before" side lives there). */
export function toFederationView(answer: FederationAnswer): FederationView | null {
  const body = (answer.body ?? {}) as Body;
  switch (answer.operation) {
    case 'initial-assignment':
      return initialAssignment(body, answer.result);
    case 'assign-replicas':
      return assignReplicas(body, answer.result);
    case 'scale-up':
      return scaleUp(body, answer.result);
    case 'prioritized-scale-down':
      return scaleDown(body, answer.result);
    case 'period-optimization':
      return periodOptimization(body, answer.result);
    case 'trigger-optimization':
      return triggerOptimization(body, answer.result);
    case 'scale-to-zero':
      return zero(body, answer.result, 'to');
    case 'scale-from-zero':
      return zero(body, answer.result, 'from');
    default:
      return null;
  }
}
