import type { MachineAssessmentContext, MachineSetGroup } from './types';
import type { MachineAutoscalerTargetRef } from './wire-types';
import { CLUSTER_API_GROUP, CLUSTER_API_SERVED_VERSIONS, MACHINE_API_GROUP, MACHINE_API_VERSION, MACHINE_SET_KIND } from './keys';
import { splitApiVersion } from './machine-set-view';

export interface ParsedTargetRef {
  apiVersion: string;
  kind: string;
  name: string;
  group: string;
  version: string;
}

export function parseTargetRef(ref: MachineAutoscalerTargetRef | undefined): ParsedTargetRef {
  const apiVersion = typeof ref?.apiVersion === 'string' ? ref.apiVersion : '';
  const { group, version } = splitApiVersion(apiVersion);
  return {
    apiVersion,
    kind: typeof ref?.kind === 'string' ? ref.kind : '',
    name: typeof ref?.name === 'string' ? ref.name : '',
    group,
    version,
  };
}

export function isMachineSetGroup(group: string): group is MachineSetGroup {
  return group === MACHINE_API_GROUP || group === CLUSTER_API_GROUP;
}

/** The targets this operator accepts, as the UnsupportedTarget message lists them. */
export function supportedTargetList(supportsClusterAPITargets: boolean): string[] {
  const list = [`${MACHINE_API_GROUP}/${MACHINE_API_VERSION} ${MACHINE_SET_KIND}`];
  if (supportsClusterAPITargets) {
    for (const version of CLUSTER_API_SERVED_VERSIONS) list.push(`${CLUSTER_API_GROUP}/${version} ${MACHINE_SET_KIND}`);
  }
  return list;
}

/**
 * upstream: machineautoscaler_controller.go `ValidateReference`/`SupportedTarget` compare group, version and kind exactly, and
 * `DefaultSupportedTargetGVKs` holds only machine.openshift.io/v1beta1 MachineSet. Cluster API refs are accepted
 * only from an enhancement-era operator, in either served version (docs/engines/machine.md §6 row 3, §10).
 */
export function isSupportedTarget(
  ref: ParsedTargetRef,
  context: Pick<MachineAssessmentContext, 'operatorSupportsClusterAPITargets'>,
): boolean {
  // upstream: `ValidateReference` rejects an empty name together with an unsupported GVK (both FailedGetTarget).
  if (ref.name === '' || ref.kind !== MACHINE_SET_KIND) return false;
  if (ref.group === MACHINE_API_GROUP) return ref.version === MACHINE_API_VERSION;
  if (ref.group === CLUSTER_API_GROUP) {
    return context.operatorSupportsClusterAPITargets && CLUSTER_API_SERVED_VERSIONS.includes(ref.version);
  }
  return false;
}

/** The namespace the reference's API group implies; unknown groups fall back to the operator's own namespace. */
export function expectedNamespaceFor(group: string, context: MachineAssessmentContext): string {
  if (group === MACHINE_API_GROUP) return context.machineAPINamespace;
  if (group === CLUSTER_API_GROUP) return context.clusterAPINamespace;
  return context.operatorNamespace;
}
