import 'server-only';
import type { ClusterStatus, StreamMessage } from '@/lib/api';

type Listener = (message: StreamMessage) => void;

const maxIds = 500;

/**
 * Change notifications for the SSE stream: changed ids are coalesced and sent at most every 250 ms
 * (a relist of 2,000 HPAs is one message, not 2,000); cluster state changes go out at once.
 */
export class ChangeBus {
  private readonly listeners = new Set<Listener>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  changed(ids: readonly string[]): void {
    if (this.listeners.size === 0) return;
    for (const id of ids) this.pending.add(id);
    this.timer ??= setTimeout(() => this.flush(), 250);
  }

  cluster(status: ClusterStatus): void {
    this.emit({ type: 'cluster', cluster: status });
  }

  private flush(): void {
    this.timer = null;
    const ids = [...this.pending];
    this.pending = new Set();
    // Past a few hundred ids a browser refetches everything anyway: send the first ones and say there were more.
    if (ids.length) this.emit(ids.length > maxIds ? { type: 'changed', ids: ids.slice(0, maxIds), truncated: true } : { type: 'changed', ids });
  }

  private emit(message: StreamMessage): void {
    for (const listener of this.listeners) listener(message);
  }
}
