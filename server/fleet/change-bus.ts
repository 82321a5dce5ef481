import 'server-only';
import type { ClusterStatus, StreamMessage } from '@/lib/api';

type Listener = (message: StreamMessage) => void;
/** Which ids and clusters one subscriber may hear of (a viewer's scope); everything when left out. */
export interface ListenerScope {
  id: (id: string) => boolean;
  cluster: (name: string) => boolean;
}

const maxIds = 500;
/** How long changed ids gather before one message carries them. */
export const batchMs = 250;

/**
 * Change notifications for the SSE stream: changed ids are coalesced and sent at most every 250 ms
 * (a relist of 2,000 HPAs is one message, not 2,000); cluster state changes go out at once.
 */
export class ChangeBus {
  private readonly listeners = new Map<Listener, ListenerScope | undefined>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private sent = 0;

  /**
   * Counts the messages sent (changed ids, cluster states), whoever heard them: an answer made before the count moved
   * may not show what a subscriber was just told of (shared-answers.ts).
   */
  get sequence(): number {
    return this.sent;
  }

  subscribe(listener: Listener, scope?: ListenerScope): () => void {
    this.listeners.set(listener, scope);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  changed(ids: readonly string[]): void {
    if (this.listeners.size === 0) return;
    for (const id of ids) this.pending.add(id);
    this.timer ??= setTimeout(() => this.flush(), batchMs);
  }

  cluster(status: ClusterStatus): void {
    this.sent += 1;
    for (const [listener, scope] of this.listeners)
      if (!scope || scope.cluster(status.name)) listener({ type: 'cluster', cluster: status });
  }

  private flush(): void {
    this.timer = null;
    this.sent += 1;
    const all = [...this.pending];
    this.pending = new Set();
    for (const [listener, scope] of this.listeners) {
      // A change a subscriber may not see is never sent, not even as a count: filter first, then truncate.
      const ids = scope ? all.filter(scope.id) : all;
      // Past a few hundred ids a browser refetches everything anyway: send the first ones and say there were more.
      if (ids.length)
        listener(ids.length > maxIds ? { type: 'changed', ids: ids.slice(0, maxIds), truncated: true } : { type: 'changed', ids });
    }
  }
}
