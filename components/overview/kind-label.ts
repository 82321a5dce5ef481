import type { AutoscalerKind, ClusterKind } from '@/lib/api';

/** Short column labels; the full kind goes in the `title`. */
export const autoscalerKindShort: Record<AutoscalerKind, string> = {
  HorizontalPodAutoscaler: 'HPA',
  MachineAutoscaler: 'MachineAutoscaler',
  FederatedHPA: 'FederatedHPA',
};

export const clusterKindLabel: Record<ClusterKind, string> = {
  kubernetes: 'Kubernetes',
  openshift: 'OpenShift',
  karmada: 'Karmada control plane',
  'karmada-member': 'Karmada member',
};
