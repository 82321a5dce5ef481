import type { KubeObject } from '@/lib/k8s/types';

/**
 * Cluster API MachineSet conversion between the storage version v1beta2 and the deprecated v1beta1 view
 * (docs/engines/machine.md §5 table; cluster-api `api/core/v1beta1/conversion.go`). Only the fields
 * that move between versions are converted; everything else is carried as is.
 */
type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

export function capiV1beta2ToV1beta1(object: KubeObject): KubeObject {
  const spec = asObj(object.spec);
  const status = asObj(object.status);
  const template = asObj(spec.template);
  const templateSpec = asObj(template.spec);
  const infra = asObj(templateSpec.infrastructureRef);
  const { deletion, ...specRest } = spec;
  const order = asObj(deletion).order;
  const { readyReplicas, availableReplicas, upToDateReplicas, conditions, deprecated, ...statusRest } = status;
  const legacy = asObj(asObj(asObj(deprecated).v1beta1));
  const out: KubeObject = {
    ...object,
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    spec: {
      ...specRest,
      ...(order !== undefined ? { deletePolicy: order } : {}),
      template: {
        ...template,
        spec: {
          ...templateSpec,
          ...(Object.keys(infra).length
            ? {
                infrastructureRef: {
                  apiVersion: typeof infra.apiGroup === 'string' && infra.apiGroup ? `${infra.apiGroup}/v1beta1` : undefined,
                  kind: infra.kind,
                  name: infra.name,
                  namespace: object.metadata.namespace,
                },
              }
            : {}),
        },
      },
    },
  };
  if (object.status !== undefined) {
    out.status = {
      ...statusRest,
      ...(legacy.readyReplicas !== undefined ? { readyReplicas: legacy.readyReplicas } : {}),
      ...(legacy.availableReplicas !== undefined ? { availableReplicas: legacy.availableReplicas } : {}),
      ...(legacy.fullyLabeledReplicas !== undefined ? { fullyLabeledReplicas: legacy.fullyLabeledReplicas } : {}),
      ...(legacy.conditions !== undefined ? { conditions: legacy.conditions } : {}),
      v1beta2: {
        ...(readyReplicas !== undefined ? { readyReplicas } : {}),
        ...(availableReplicas !== undefined ? { availableReplicas } : {}),
        ...(upToDateReplicas !== undefined ? { upToDateReplicas } : {}),
        ...(conditions !== undefined ? { conditions } : {}),
      },
    };
  }
  return out;
}

export function capiV1beta1ToV1beta2(object: KubeObject): KubeObject {
  const spec = asObj(object.spec);
  const status = asObj(object.status);
  const template = asObj(spec.template);
  const templateSpec = asObj(template.spec);
  const infra = asObj(templateSpec.infrastructureRef);
  const { deletePolicy, ...specRest } = spec;
  const { readyReplicas, availableReplicas, fullyLabeledReplicas, conditions, v1beta2, ...statusRest } = status;
  const next = asObj(v1beta2);
  const out: KubeObject = {
    ...object,
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    spec: {
      ...specRest,
      ...(deletePolicy !== undefined ? { deletion: { order: deletePolicy } } : {}),
      template: {
        ...template,
        spec: {
          ...templateSpec,
          ...(Object.keys(infra).length
            ? {
                infrastructureRef: {
                  apiGroup: typeof infra.apiVersion === 'string' ? infra.apiVersion.split('/')[0] : undefined,
                  kind: infra.kind,
                  name: infra.name,
                },
              }
            : {}),
        },
      },
    },
  };
  if (object.status !== undefined) {
    out.status = {
      ...statusRest,
      ...(next.readyReplicas !== undefined ? { readyReplicas: next.readyReplicas } : {}),
      ...(next.availableReplicas !== undefined ? { availableReplicas: next.availableReplicas } : {}),
      ...(next.upToDateReplicas !== undefined ? { upToDateReplicas: next.upToDateReplicas } : {}),
      ...(next.conditions !== undefined ? { conditions: next.conditions } : {}),
      deprecated: {
        v1beta1: {
          ...(readyReplicas !== undefined ? { readyReplicas } : {}),
          ...(availableReplicas !== undefined ? { availableReplicas } : {}),
          ...(fullyLabeledReplicas !== undefined ? { fullyLabeledReplicas } : {}),
          ...(conditions !== undefined ? { conditions } : {}),
        },
      },
    };
  }
  return out;
}
