import { ScaleUpInputSchema, type ScaleUpInput, type ScaleUpPreview } from '@/lib/api/federation';
import { step, textsOf } from '@/lib/federation/explain';
import { formatSplit } from '@/lib/federation/format-split';
import { planSeedSplit, splitWithRoom } from '@/lib/federation/policy-split';
import { compareNames, resolveTieDirection } from '@/lib/federation/webster';

/**
 * Absorbs floating-point noise in `current·util/target` (e.g. 3·70/30 = 7.000000000000001) before the ceiling;
 * the HPA's own ±10% tolerance dwarfs it.
 */
const CEIL_EPSILON = 1e-9;

/**
 * The seed's cross-cluster scale-up (docs/engines/federation.md §4.6, §5): a member HPA is stuck at maxReplicas, so the
 * controller places its deficit `ceil(current·util/target) − max` (or its pending pods, if more) in the other
 * clusters: Webster for weights (re-splitting what overflows a cluster's room), fills for Aggregated and
 * Prioritized, the single roomiest cluster for Duplicated. Room is `max − current`, capped at availableReplicas
 * except under StaticWeighted; what fits nowhere is `unplaced`.
 */
export function previewScaleUp(input: ScaleUpInput): ScaleUpPreview {
  const parsed = ScaleUpInputSchema.parse(input);
  const { policy, blockedCluster: blocked, targetUtilization } = parsed;
  const desired = Math.ceil((blocked.currentReplicas * blocked.currentUtilization) / targetUtilization - CEIL_EPSILON);
  const metricDeficit = Math.max(0, desired - blocked.maxReplicas);
  const pending = blocked.pendingReplicas ?? 0;
  const deficit = Math.max(metricDeficit, pending);
  const steps = [
    step(
      'deficit',
      `${blocked.name}: desired ceil(${blocked.currentReplicas} × ${blocked.currentUtilization} / ${targetUtilization}) = ${desired}; ` +
        `deficit ${desired} − maxReplicas ${blocked.maxReplicas} = ${metricDeficit}` +
        (blocked.pendingReplicas !== undefined
          ? `; pending pods ${pending}; placing max(${metricDeficit}, ${pending}) = ${deficit}.`
          : '.'),
      [blocked.name],
    ),
  ];

  // Eligible clusters run replicas already, so Aggregated fills by availableReplicas alone.
  const eligible = parsed.eligibleClusters.map((c) => ({ ...c, prevReplicas: undefined }));
  const plan = planSeedSplit(policy, eligible, resolveTieDirection(parsed.tieBreak, parsed.uid));
  const room = new Map<string, number>();
  for (const c of parsed.eligibleClusters) {
    const free = Math.max(0, c.maxReplicas - c.currentReplicas);
    room.set(c.name, policy === 'StaticWeighted' || c.availableReplicas === undefined ? free : Math.min(free, c.availableReplicas));
  }
  const names = parsed.eligibleClusters.map((c) => c.name).sort(compareNames);
  steps.push(
    step('rule', plan.rule, plan.ruleClusters),
    step(
      'room',
      `Room (maxReplicas − currentReplicas${policy === 'StaticWeighted' ? '' : ', capped at availableReplicas'}): ${formatSplit(names, room)}.`,
      names,
    ),
  );
  for (const { name, reason } of plan.excluded) steps.push(step('excluded', `${name} is excluded: ${reason}.`, [name]));

  const given = splitWithRoom(plan, deficit, room);
  const increments = Object.fromEntries(names.map((name) => [name, given.get(name) ?? 0]));
  const placed = names.reduce((acc, name) => acc + (given.get(name) ?? 0), 0);
  steps.push(step('increments', `Increments: ${formatSplit(names, given)}; placed ${placed} of ${deficit}.`, names));

  const notes = [
    `Writing a member's scale directly competes with that member's own HPA: once its utilization drops below ${targetUtilization}, the member HPA scales back down after its stabilization window (the proposal does not address this).`,
  ];
  if (deficit > placed) notes.push(`${deficit - placed} replicas fit in no eligible cluster's room and stay unplaced.`);
  return { blockedDesiredReplicas: desired, deficit, increments, unplaced: deficit - placed, notes, explanation: textsOf(steps), steps };
}
