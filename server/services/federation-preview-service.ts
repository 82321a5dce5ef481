import 'server-only';
import type { FederationOperation } from '@/lib/api';
import { federationOperations } from '@/lib/api';
import {
  allocateWebsterSeats,
  assignReplicas,
  divideReplicas,
  previewInitialAssignment,
  previewPeriodOptimization,
  previewPrioritizedScaleDown,
  previewScaleFromZero,
  previewScaleToZero,
  previewScaleUp,
  previewTriggerOptimization,
  takeByWeightLegacy,
} from '@/lib/federation';

const run: Record<FederationOperation, (input: never) => unknown> = {
  'initial-assignment': previewInitialAssignment,
  'scale-up': previewScaleUp,
  'prioritized-scale-down': previewPrioritizedScaleDown,
  'period-optimization': previewPeriodOptimization,
  'trigger-optimization': previewTriggerOptimization,
  'scale-to-zero': previewScaleToZero,
  'scale-from-zero': previewScaleFromZero,
  'assign-replicas': assignReplicas,
  'divide-replicas': divideReplicas,
  'webster-seats': allocateWebsterSeats,
  'take-by-weight-legacy': takeByWeightLegacy,
};

/**
 * Runs one lib/federation function on a validated body. A schema failure is a 400 naming the field
 * (through handle()); Karmada's own "unschedulable" answer is a result (`{ error }`), not a failure.
 */
export function previewFederation(operation: FederationOperation, body: unknown): unknown {
  const { input, result } = federationOperations[operation];
  const parsed = input.parse(body);
  return result.parse(run[operation](parsed as never));
}
