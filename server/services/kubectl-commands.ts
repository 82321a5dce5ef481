import 'server-only';
import type { Autoscaler, AutoscalerDetailResponse } from '@/lib/api';
import { CLUSTER_API_GROUP, DEFAULT_CLUSTER_API_NAMESPACE, DEFAULT_MACHINE_API_NAMESPACE, MACHINE_API_GROUP } from '@/lib/machine/keys';
import { shellWord as sh } from '@/lib/format/shell';
import type { Autoscope } from '../runtime';

/** Read-only kubectl commands to inspect an autoscaler yourself (through the Karmada proxy for a member cluster). */
export function kubectlCommands(app: Autoscope, a: Autoscaler): AutoscalerDetailResponse['kubectl'] {
  const parent = app.connectionFor(a.cluster)?.parent;
  const context = parent ?? a.cluster;
  const base = `kubectl --context ${sh(context)}`;
  if (parent) {
    const member = a.cluster.slice(parent.length + 1);
    const proxy = `/apis/cluster.karmada.io/v1alpha1/clusters/${member}/proxy`;
    return [
      {
        label: 'Get the HPA through the Karmada proxy',
        command: `${base} get --raw ${sh(`${proxy}/apis/autoscaling/v2/namespaces/${a.namespace}/horizontalpodautoscalers/${a.name}`)}`,
      },
      {
        label: 'Its events',
        command: `${base} get --raw ${sh(`${proxy}/api/v1/namespaces/${a.namespace}/events?fieldSelector=involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=${a.name}`)}`,
      },
    ];
  }
  const ns = `-n ${sh(a.namespace)}`;
  switch (a.kind) {
    case 'HorizontalPodAutoscaler':
      return [
        { label: 'Show the HPA', command: `${base} ${ns} get hpa ${sh(a.name)} -o yaml` },
        { label: 'Describe it (conditions and events)', command: `${base} ${ns} describe hpa ${sh(a.name)}` },
        {
          label: 'Its events',
          command: `${base} ${ns} get events --field-selector involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=${sh(a.name)}`,
        },
        { label: 'The target and its pods', command: `${base} ${ns} get ${sh(a.target.kind.toLowerCase())} ${sh(a.target.name)} -o wide` },
      ];
    case 'MachineAutoscaler':
      return [
        { label: 'Show the MachineAutoscaler', command: `${base} ${ns} get machineautoscaler ${sh(a.name)} -o yaml` },
        {
          label: 'The Machine API MachineSet',
          command: `${base} -n ${DEFAULT_MACHINE_API_NAMESPACE} get machinesets.${MACHINE_API_GROUP} ${sh(a.target.name)} -o yaml`,
        },
        {
          label: 'The Cluster API MachineSet',
          command: `${base} -n ${DEFAULT_CLUSTER_API_NAMESPACE} get machinesets.${CLUSTER_API_GROUP} ${sh(a.target.name)} -o yaml`,
        },
        {
          label: "The operator's events",
          command: `${base} ${ns} get events --field-selector involvedObject.kind=MachineAutoscaler,involvedObject.name=${sh(a.name)}`,
        },
      ];
    case 'FederatedHPA':
      return [
        { label: 'Show the FederatedHPA', command: `${base} ${ns} get federatedhpa ${sh(a.name)} -o yaml` },
        {
          label: 'Its ResourceBinding (the per-cluster split)',
          command: `${base} ${ns} get resourcebinding ${sh(`${a.target.name}-${a.target.kind.toLowerCase()}`)} -o yaml`,
        },
        { label: 'Member clusters', command: `${base} get clusters` },
      ];
  }
}
