import { toAutoscalerId } from '@/lib/api/autoscaler';
import type { AutoscalerKind } from '@/lib/api/autoscaler';
import type { EventDto } from '@/lib/api/fleet';
import type { CoreEvent, KubeObject } from '@/lib/k8s/types';

/** A core/v1 Event, or an events.k8s.io/v1 one (`note`, `regarding`, `deprecatedCount`). */
type AnyEvent = CoreEvent & { note?: string; regarding?: CoreEvent['involvedObject']; deprecatedCount?: number };

const kindOfEvent: Partial<Record<string, AutoscalerKind>> = {
  HorizontalPodAutoscaler: 'HorizontalPodAutoscaler',
  MachineAutoscaler: 'MachineAutoscaler',
  FederatedHPA: 'FederatedHPA',
};

/** One event in the API's shape, and what it is about: an autoscaler (by id), or a MachineSet (by name). */
export interface EventFiling {
  event: EventDto;
  autoscalerId: string | null;
  /** The operator's GPU warning is recorded on the MachineSet: it belongs to the MachineAutoscalers targeting it. */
  machineSet: string | null;
}

/** A Kubernetes event (either API) as the API's event, filed under the autoscaler or MachineSet it regards. */
export function toEventFiling(cluster: string, object: KubeObject): EventFiling {
  const e = object as AnyEvent;
  // core/v1 events carry involvedObject, events.k8s.io/v1 ones regarding: either may be absent.
  const involved = (e.involvedObject as AnyEvent['involvedObject'] | undefined) ?? e.regarding;
  const kind = involved?.kind ? kindOfEvent[involved.kind] : undefined;
  const event: EventDto = {
    uid: e.metadata.uid ?? `${cluster}/${e.metadata.namespace ?? ''}/${e.metadata.name}`,
    type: e.type ?? 'Normal',
    reason: e.reason ?? '',
    message: e.message ?? e.note ?? '',
    count: e.count ?? e.deprecatedCount ?? 1,
    firstSeen: e.firstTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? null,
    lastSeen: e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? null,
    source: e.source?.component ?? e.reportingComponent ?? null,
    regarding: `${involved?.kind ?? ''}/${involved?.name ?? ''}`,
  };
  const autoscalerId =
    kind && involved?.name ? toAutoscalerId(cluster, kind, involved.namespace ?? e.metadata.namespace ?? 'default', involved.name) : null;
  const machineSet = !autoscalerId && involved?.kind === 'MachineSet' && involved.name ? involved.name : null;
  return { event, autoscalerId, machineSet };
}
