import type { CustomResourceDefinitionObject } from './wire-types';
import { MACHINE_AUTOSCALER_CRD_NAME } from './keys';

/**
 * Whether the installed cluster-autoscaler-operator is the enhancement-era one that accepts Cluster API targets.
 * The shipped operator's CRD has no `status.conditions`; PR #402 adds it together with CAPI support, so its
 * presence in any served version's schema is the tell (docs/engines/machine.md §7). A missing CRD, or another CRD, reads as false.
 */
export function operatorSupportsClusterAPITargetsFromCrd(crd: CustomResourceDefinitionObject | null | undefined): boolean {
  if (!crd || crd.metadata.name !== MACHINE_AUTOSCALER_CRD_NAME) return false;
  const versions = Array.isArray(crd.spec?.versions) ? crd.spec.versions : [];
  return versions.some(
    (version) => version.served !== false && version.schema?.openAPIV3Schema?.properties?.status?.properties?.conditions !== undefined,
  );
}
