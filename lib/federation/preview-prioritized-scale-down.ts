import { PrioritizedScaleDownInputSchema, type PrioritizedScaleDownInput, type PrioritizedScaleDownPreview } from '@/lib/api/federation';
import { step, textsOf } from '@/lib/federation/explain';
import { formatSplit } from '@/lib/federation/format-split';
import { compareNames } from '@/lib/federation/webster';

const CEIL_EPSILON = 1e-9;
/** The seed's decentralized hand-over is simulated for at most this many HPA syncs. */
const MAX_SIMULATED_SYNCS = 100;

interface ScaleDownCluster {
  name: string;
  currentReplicas: number;
  minReplicas: number;
  maxReplicas: number;
  currentUtilization: number;
  priority: number;
}

/**
 * Where the seed's literal loop stops (§4.7): every higher-priority cluster is pinned at its current count and
 * the lowest-priority HPA scales on its own, under the seed's equal-load-sharing assumption
 * (utilization = total load / all pods). Returns the replicas it settles at.
 */
function seedHandOverFixpoint(lowest: ScaleDownCluster, pinned: number, totalLoad: number, target: number): number {
  let replicas = lowest.currentReplicas;
  for (let sync = 0; sync < MAX_SIMULATED_SYNCS; sync++) {
    const utilization = totalLoad / (pinned + replicas);
    const desired = Math.ceil((replicas * utilization) / target - CEIL_EPSILON);
    const next = Math.min(Math.max(desired, lowest.minReplicas), lowest.maxReplicas);
    if (next === replicas) return replicas;
    replicas = next;
  }
  return replicas;
}

/**
 * The seed's Prioritized scale-down computed centrally (docs/engines/federation.md §4.7, §5): the total desired is
 * `ceil(Σ current·util / target)`; the excess is removed from the lowest priority first (ties by name
 * descending, as the to-zero order), each cluster down to its minReplicas.
 */
export function previewPrioritizedScaleDown(input: PrioritizedScaleDownInput): PrioritizedScaleDownPreview {
  const parsed = PrioritizedScaleDownInputSchema.parse(input);
  const target = parsed.targetUtilization;
  const clusters = parsed.clusters;
  const totalLoad = clusters.reduce((acc, c) => acc + c.currentReplicas * c.currentUtilization, 0);
  const totalCurrent = clusters.reduce((acc, c) => acc + c.currentReplicas, 0);
  const totalDesired = Math.ceil(totalLoad / target - CEIL_EPSILON);
  const excess = Math.max(0, totalCurrent - totalDesired);
  const names = clusters.map((c) => c.name).sort(compareNames);
  const steps = [
    step(
      'totalLoad',
      `Total load Σ current × utilization = ${clusters.map((c) => `${c.currentReplicas}×${c.currentUtilization}`).join(' + ')} = ${totalLoad}.`,
    ),
    step(
      'totalDesired',
      `Total desired ceil(${totalLoad} / ${target}) = ${totalDesired}; excess ${totalCurrent} − ${totalDesired} = ${excess}.`,
    ),
  ];

  const final = new Map(clusters.map((c) => [c.name, c.currentReplicas]));
  const removalOrder: string[] = [];
  let remaining = excess;
  const lowestFirst = clusters.slice().sort((a, b) => a.priority - b.priority || compareNames(b.name, a.name));
  for (const c of lowestFirst) {
    if (remaining <= 0) break;
    const removable = Math.max(0, c.currentReplicas - c.minReplicas);
    const removed = Math.min(removable, remaining);
    if (removed === 0) continue;
    final.set(c.name, c.currentReplicas - removed);
    removalOrder.push(c.name);
    remaining -= removed;
    steps.push(
      step(
        'removal',
        `${c.name} (priority ${c.priority}): ${c.currentReplicas} → ${c.currentReplicas - removed} (−${removed}, min ${c.minReplicas}).`,
        [c.name],
      ),
    );
  }
  if (remaining > 0) steps.push(step('excess', `${remaining} excess replicas remain: every cluster is at its minReplicas.`));
  steps.push(step('result', `Final: ${formatSplit(names, final)}.`, names));

  const notes: string[] = [];
  const lowest = lowestFirst[0];
  if (lowest && clusters.length > 1 && excess > 0) {
    const pinned = totalCurrent - lowest.currentReplicas;
    const settled = seedHandOverFixpoint(lowest, pinned, totalLoad, target);
    if (settled > lowest.minReplicas) {
      notes.push(
        `The proposal's hand-over ("after ${lowest.name}'s replicas are equal to ${lowest.minReplicas}") never fires here: with the others pinned, ` +
          `${lowest.name}'s HPA settles at ${settled} (equal load sharing), leaving ${pinned + settled} pods where ${totalDesired} would do. ` +
          'Hand over when the lower-priority HPA has stopped scaling down (desired == current) or reached its min.',
      );
    }
  }
  const byName = new Map(clusters.map((c) => [c.name, c]));
  const priorities = names.map((name) => byName.get(name)?.priority).join(',');
  const currents = names.map((name) => byName.get(name)?.currentReplicas).join(',');
  if (target === 50 && priorities === '3,2,1' && currents === '4,9,4' && clusters.every((c) => c.currentUtilization === 25)) {
    notes.push(
      `The proposal's Prioritized scale-down example (§4.7) says to update "cluster-2/cluster-3's scale resource with 4/9 replicas": 4/9 are ${names[0]}'s and ${names[1]}'s counts, ` +
        `so the names are swapped (${names[0]} and ${names[1]} are pinned); ${names[2]} scaling to 2 is right.`,
    );
  }
  return {
    totalLoad,
    totalDesiredReplicas: totalDesired,
    excessReplicas: excess,
    removalOrder,
    final: names.map((name) => ({ name, replicas: final.get(name) ?? 0 })),
    notes,
    explanation: textsOf(steps),
    steps,
  };
}
