import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceType } from '../api/catalog';

const specStatus = (statusProperties: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    status: { type: 'object', properties: statusProperties, 'x-kubernetes-preserve-unknown-fields': true },
  },
});

/**
 * The CustomResourceDefinitions a cluster serves, one per group/plural with every served version.
 * The MachineAutoscaler CRD's status schema carries `conditions` only for an enhancement-era operator:
 * docs/engines/machine.md §7 infers Cluster API target support from exactly that.
 */
export function crdObjects(resources: ResourceType[], options: { machineAutoscalerConditions: boolean; createdAt: string }): KubeObject[] {
  const byName = new Map<string, ResourceType[]>();
  for (const r of resources) {
    if (!r.crd) continue;
    const name = `${r.plural}.${r.group}`;
    byName.set(name, [...(byName.get(name) ?? []), r]);
  }
  return [...byName.entries()].map(([name, versions]) => {
    const first = versions[0] as ResourceType;
    const statusProps =
      first.kind === 'MachineAutoscaler'
        ? {
            lastTargetRef: {
              type: 'object',
              properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } },
            },
            ...(options.machineAutoscalerConditions
              ? { conditions: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }
              : {}),
          }
        : {};
    const storageVersion = versions.find((v) => !v.fromStorage)?.version ?? first.version;
    return {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name, creationTimestamp: options.createdAt, annotations: { 'controller-gen.kubebuilder.io/version': 'v0.17.2' } },
      spec: {
        group: first.group,
        names: {
          plural: first.plural,
          singular: first.singular,
          kind: first.kind,
          listKind: `${first.kind}List`,
          ...(first.shortNames ? { shortNames: first.shortNames } : {}),
          ...(first.categories ? { categories: first.categories } : {}),
        },
        scope: first.namespaced ? 'Namespaced' : 'Cluster',
        versions: versions.map((v) => ({
          name: v.version,
          served: true,
          storage: v.version === storageVersion,
          ...(v.version !== storageVersion ? { deprecated: true } : {}),
          schema: { openAPIV3Schema: specStatus(statusProps) },
          subresources: {
            ...(v.subresources.includes('status') ? { status: {} } : {}),
            ...(v.scale
              ? {
                  scale: {
                    specReplicasPath: v.scale.specReplicasPath,
                    statusReplicasPath: v.scale.statusReplicasPath,
                    labelSelectorPath: v.scale.labelSelectorPath,
                  },
                }
              : {}),
          },
          additionalPrinterColumns: v.columns
            .filter((c) => c.jsonPath)
            .map((c) => ({
              name: c.name,
              type: c.type,
              jsonPath: c.jsonPath,
              ...(c.description ? { description: c.description } : {}),
              ...(c.priority ? { priority: c.priority } : {}),
            })),
        })),
        conversion: { strategy: versions.length > 1 ? 'Webhook' : 'None' },
      },
      status: {
        acceptedNames: { plural: first.plural, kind: first.kind },
        storedVersions: [storageVersion],
        conditions: [
          {
            type: 'NamesAccepted',
            status: 'True',
            reason: 'NoConflicts',
            message: 'no conflicts found',
            lastTransitionTime: options.createdAt,
          },
          {
            type: 'Established',
            status: 'True',
            reason: 'InitialNamesAccepted',
            message: 'the initial names have been accepted',
            lastTransitionTime: options.createdAt,
          },
        ],
      },
    };
  });
}
