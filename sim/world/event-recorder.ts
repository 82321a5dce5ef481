import type { CoreEvent, KubeObject } from '@/lib/k8s/types';
import { kubeTimeAt } from '../api/store';
import type { ObjectStore } from '../api/store';

const eventsStorage = '/events';
/** kube-apiserver's default --event-ttl. */
const eventTtlMs = 60 * 60 * 1000;

export interface Involved {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
}

/**
 * client-go's event recorder as a controller uses it: an event with the same object, type, reason and
 * message within ten minutes bumps `count` and `lastTimestamp` on the existing Event (the
 * EventCorrelator's aggregation), and the API server drops events an hour after their last update.
 */
export class EventRecorder {
  private readonly latest = new Map<string, { name: string; namespace: string; at: number }>();
  private sequence = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly component: string,
  ) {}

  record(involved: Involved, type: 'Normal' | 'Warning', reason: string, message: string, now: number, component = this.component): void {
    const namespace = involved.namespace ?? 'default';
    const key = `${involved.uid ?? `${involved.kind}/${namespace}/${involved.name}`}|${type}|${reason}|${message}`;
    const previous = this.latest.get(key);
    const at = kubeTimeAt(now);
    if (previous && now - previous.at < 10 * 60 * 1000) {
      const updated = this.store.mutate(eventsStorage, previous.namespace, previous.name, (e) => ({
        ...e,
        count: Number((e as CoreEvent).count ?? 1) + 1,
        lastTimestamp: at,
      }));
      if (updated) {
        previous.at = now;
        return;
      }
    }
    // Like client-go: the object's name and a hex timestamp, unique per event.
    const name = `${involved.name}.${(BigInt(now) * 1_000_000n + BigInt(this.sequence++ % 1_000_000)).toString(16)}`;
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.name,
        namespace,
        ...(involved.uid ? { uid: involved.uid } : {}),
      },
      reason,
      message,
      type,
      count: 1,
      firstTimestamp: at,
      lastTimestamp: at,
      eventTime: null,
      source: { component },
      reportingComponent: component,
      reportingInstance: '',
    };
    this.store.create(eventsStorage, event, component);
    this.latest.set(key, { name, namespace, at: now });
  }

  /** Drops events whose last occurrence is older than the event TTL. */
  expire(now: number): void {
    for (const e of this.store.list(eventsStorage)) {
      const last = Date.parse(String((e as CoreEvent).lastTimestamp ?? e.metadata.creationTimestamp ?? ''));
      if (Number.isFinite(last) && now - last > eventTtlMs) this.store.delete(eventsStorage, e.metadata.namespace, e.metadata.name);
    }
    for (const [key, v] of this.latest) if (now - v.at > eventTtlMs) this.latest.delete(key);
  }
}
