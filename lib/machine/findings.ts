/**
 * The failure catalogue of docs/engines/machine.md §6: one constructor per code, each producing the exact
 * message template of the table, and the table's order as the priority order.
 */
import type { MachineFinding, MachineFindingCode, MachineFindingSeverity } from './types';
import { MACHINE_FINDING_CODES } from './types';
import { CLUSTER_API_PAUSED_ANNOTATION, MACHINE_TARGET_OWNER_ANNOTATION } from './keys';

/** Row order of the §6 table: findings are reported, and the Ready reason chosen, in this order. */
export const MACHINE_FINDING_PRIORITY: readonly MachineFindingCode[] = MACHINE_FINDING_CODES;

const RANK = new Map(MACHINE_FINDING_PRIORITY.map((code, index) => [code, index]));

export function compareFindings(a: MachineFinding, b: MachineFinding): number {
  return (RANK.get(a.code) ?? 0) - (RANK.get(b.code) ?? 0);
}

function finding(code: MachineFindingCode, severity: MachineFindingSeverity, message: string): MachineFinding {
  return { code, severity, message };
}

export function notReconciled(namespace: string): MachineFinding {
  return finding(
    'MachineAutoscalerNotReconciled',
    'error',
    `MachineAutoscaler is in namespace ${namespace}; the cluster-autoscaler-operator only reconciles MachineAutoscalers in openshift-machine-api`,
  );
}

/** Which bound is broken. Only `min > max` has a template in §6; the other two are ours (see report). */
export type InvalidSpecProblem =
  | { kind: 'minGreaterThanMax'; min: number; max: number }
  | { kind: 'minNegative'; min: number }
  | { kind: 'maxBelowOne'; max: number }
  | { kind: 'notAnInteger'; field: 'minReplicas' | 'maxReplicas' };

export function invalidSpec(problem: InvalidSpecProblem): MachineFinding {
  switch (problem.kind) {
    case 'minGreaterThanMax':
      return finding('MachineAutoscalerInvalidSpec', 'error', `minReplicas (${problem.min}) is greater than maxReplicas (${problem.max})`);
    case 'minNegative':
      return finding('MachineAutoscalerInvalidSpec', 'error', `minReplicas (${problem.min}) must be 0 or greater`);
    case 'maxBelowOne':
      return finding('MachineAutoscalerInvalidSpec', 'error', `maxReplicas (${problem.max}) must be 1 or greater`);
    case 'notAnInteger':
      return finding('MachineAutoscalerInvalidSpec', 'error', `spec.${problem.field} is missing or not an integer`);
  }
}

export function unsupportedTarget(apiVersion: string, kind: string, supported: readonly string[]): MachineFinding {
  return finding(
    'MachineAutoscalerUnsupportedTarget',
    'error',
    `scaleTargetRef ${apiVersion}, Kind=${kind} is not a supported target; supported: ${supported.join(', ')}`,
  );
}

export function targetNotFound(
  name: string,
  namespace: string,
  group: string,
  hint: { otherGroup: string; otherNamespace: string; otherApiVersion: string } | null,
): MachineFinding {
  const base = `MachineSet ${name} not found in namespace ${namespace} (${group})`;
  const suffix = hint
    ? `; a ${hint.otherGroup} MachineSet with that name exists in ${hint.otherNamespace}: set scaleTargetRef.apiVersion to ${hint.otherApiVersion}`
    : '';
  return finding('MachineAutoscalerTargetNotFound', 'error', base + suffix);
}

export function targetWrongNamespace(name: string, group: string, actual: string, expected: string): MachineFinding {
  return finding(
    'MachineAutoscalerTargetWrongNamespace',
    'error',
    `MachineSet ${name} (${group}) was found in namespace ${actual}, but ${group} targets must be in ${expected}`,
  );
}

export function duplicateTargetScaleRef(name: string, winner: string): MachineFinding {
  return finding(
    'MachineAutoscalerDuplicateTargetScaleRef',
    'error',
    `targetScaleRef has multiple MachineAutoscaler owners: MachineSet ${name} is already autoscaled by ${winner}`,
  );
}

export function nonAuthoritativeTargetScaleRef(authority: string, name: string, authoritativeApiVersion: string): MachineFinding {
  return finding(
    'MachineAutoscalerNonAuthoritativeTargetScaleRef',
    'error',
    `targetScaleRef is not the authoritative resource: ${authority} is authoritative for MachineSet ${name}; reference ${authoritativeApiVersion} MachineSet ${name} instead`,
  );
}

/** `afterwardsApiVersion`: the group the migration is heading to, when the ref points at the other one. */
export function targetMigrating(name: string, afterwardsApiVersion: string | null): MachineFinding {
  const suffix = afterwardsApiVersion
    ? `; afterwards this MachineAutoscaler must reference ${afterwardsApiVersion} MachineSet ${name}`
    : '';
  return finding(
    'MachineAutoscalerTargetMigrating',
    'unknown',
    `MachineSet ${name} is migrating between Machine API and Cluster API (status.authoritativeAPI: Migrating); autoscaling of this set is suspended until the migration completes${suffix}`,
  );
}

export function targetDeleting(name: string): MachineFinding {
  return finding('MachineAutoscalerTargetDeleting', 'error', `MachineSet ${name} is being deleted`);
}

export function targetPaused(namespace: string, name: string): MachineFinding {
  return finding(
    'MachineAutoscalerTargetPaused',
    'error',
    `authoritative MachineSet ${namespace}/${name} carries ${CLUSTER_API_PAUSED_ANNOTATION}; the cluster autoscaler skips paused node groups`,
  );
}

/**
 * docs/engines/machine.md §6 row 11 (an owner that does not exist), and beyond it an owner that exists but now targets another
 * MachineSet (its annotation was left behind by a retarget): the operator's SetOwner refuses any owner
 * string but this MachineAutoscaler's own (machinetarget.go, ErrTargetAlreadyOwned), so both fail forever.
 */
export function targetOwnedByAnother(name: string, owner: string, ownerTarget: string | null = null): MachineFinding {
  return finding(
    'MachineAutoscalerTargetOwnedByAnother',
    'error',
    ownerTarget === null
      ? `MachineSet ${name} is annotated as owned by ${owner}, which does not exist; remove annotation ${MACHINE_TARGET_OWNER_ANNOTATION}`
      : `MachineSet ${name} is annotated as owned by ${owner}, which targets MachineSet ${ownerTarget}; remove annotation ${MACHINE_TARGET_OWNER_ANNOTATION}`,
  );
}

export function targetAnnotationsMissing(namespace: string, name: string, keys: readonly string[]): MachineFinding {
  return finding(
    'MachineAutoscalerTargetAnnotationsMissing',
    'error',
    `authoritative MachineSet ${namespace}/${name} is missing annotation(s) ${keys.join(', ')}; the cluster autoscaler will not manage it as a node group`,
  );
}

export function targetAnnotationsMismatch(
  namespace: string,
  name: string,
  annotated: { min: string; max: string },
  spec: { min: number; max: number },
): MachineFinding {
  return finding(
    'MachineAutoscalerTargetAnnotationsMismatch',
    'error',
    `annotations on authoritative MachineSet ${namespace}/${name} (min=${annotated.min}, max=${annotated.max}) do not match spec (min=${spec.min}, max=${spec.max})`,
  );
}

export function scaleFromZeroUnsupported(name: string, where: string, zeroReplicas: boolean): MachineFinding {
  return zeroReplicas
    ? finding(
        'MachineAutoscalerScaleFromZeroUnsupported',
        'error',
        `MachineSet ${name} has 0 replicas and no CPU/memory capacity information (${where}); the cluster autoscaler cannot build a node template and ignores this node group`,
      )
    : finding(
        'MachineAutoscalerScaleFromZeroUnsupported',
        'warning',
        `minReplicas is 0 but MachineSet ${name} has no CPU/memory capacity information (${where}); once scaled to zero the cluster autoscaler cannot scale it back up`,
      );
}

export function gpuAcceleratorLabelMissing(name: string): MachineFinding {
  return finding(
    'GPUAcceleratorLabelMissing',
    'warning',
    `GPU accelerator label not found on MachineSet ${name} (spec.template.spec.metadata.labels["cluster-api/accelerator"]); GPU resource limits of the ClusterAutoscaler cannot be applied to this node group`,
  );
}

export function clusterAutoscalerMissing(): MachineFinding {
  return finding(
    'ClusterAutoscalerMissing',
    'warning',
    'no ClusterAutoscaler named "default" exists; MachineAutoscaler annotations have no effect until one is created',
  );
}

export function mirrorNotSynchronized(name: string, direction: 'to' | 'from', status: string, reason: string): MachineFinding {
  return finding(
    'TargetMirrorNotSynchronized',
    'info',
    `Machine API MachineSet ${name} is not synchronized ${direction} Cluster API (Synchronized=${status}, reason ${reason})`,
  );
}
