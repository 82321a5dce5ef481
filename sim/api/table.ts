import type { KubeObject } from '@/lib/k8s/types';
import { ageOf } from './age';
import type { PrinterColumn, ResourceType } from './catalog';
import { evalJsonPath } from './json-path';

const nameColumn = { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 };

function cellFor(column: PrinterColumn, object: KubeObject, now: Date): unknown {
  if (column.cell) return column.cell(object, now);
  const value = column.jsonPath ? evalJsonPath(object, column.jsonPath) : undefined;
  if (column.type === 'date') return typeof value === 'string' ? ageOf(value, now) : '<unknown>';
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

function partialMetadata(object: KubeObject): Record<string, unknown> {
  const { managedFields: _mf, ...metadata } = object.metadata;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata };
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** A `meta.k8s.io/v1` Table, as kube-apiserver answers `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`. */
export function toTable(
  resource: ResourceType,
  objects: readonly KubeObject[],
  meta: { resourceVersion: string; continue?: string; remainingItemCount?: number },
  now: Date,
  include: IncludeObject = 'Metadata',
): Record<string, unknown> {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {
      resourceVersion: meta.resourceVersion,
      ...(meta.continue ? { continue: meta.continue } : {}),
      ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}),
    },
    columnDefinitions: [
      nameColumn,
      ...resource.columns.map((c) => ({
        name: c.name,
        type: c.type === 'date' ? 'string' : c.type,
        format: c.format ?? '',
        description: c.description,
        priority: c.priority,
      })),
    ],
    rows: objects.map((o) => ({
      cells: [o.metadata.name, ...resource.columns.map((c) => cellFor(c, o, now))],
      ...(include === 'None' ? {} : { object: include === 'Object' ? o : partialMetadata(o) }),
    })),
  };
}

export function wantsTable(accept: string | undefined): boolean {
  return !!accept && /as=Table/.test(accept) && /g=meta\.k8s\.io/.test(accept);
}
