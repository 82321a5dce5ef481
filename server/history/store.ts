import 'server-only';
import type { Autoscaler, AutoscalerKind, ClusterState, EventDto, HistoryResponse, Transition } from '@/lib/api';

/**
 * Everything Autoscope persists, as the rest of the server sees it: condition transitions, replica samples,
 * events, cluster states, and what the index asks of history (since when a condition, a mismatch, a problem held).
 * `HistoryStore` (SQLite, embedded, the default) is the implementation today. The PostgreSQL schema, ownership and
 * change stream a second implementation writes through are in `server/store/postgres/` (docs/scale-out.md).
 *
 * Writes are fire-and-forget: an implementation queues and batches them, so watch events never wait on IO.
 * The `*Since`/`firstSeen` answers come from memory (the index asks them for every object it maps).
 * The range reads (`history`, `events`, `latestTransitions`) are synchronous because better-sqlite3 is; a store
 * over the network will need them to return promises, and their four callers in `server/services/` to await.
 */
export interface AutoscopeStore {
  /** `resourceVersion`: of the object version `a` was mapped from, kept with each transition it starts. */
  observe(a: Autoscaler, now: string, resourceVersion?: string): void;
  observeDeleted(id: string, now: string): void;
  recordEvent(id: string, e: EventDto): void;
  recordClusterState(cluster: string, state: ClusterState, at: string, error: string | null): void;

  conditionSince(id: string): Record<string, string>;
  replicasMismatchSince(id: string): string | null;
  problemSince(id: string): Record<string, string>;
  firstSeen(id: string): string | null;

  history(id: string, kind: AutoscalerKind, from: string, to: string): Omit<HistoryResponse, 'id' | 'from' | 'to'>;
  events(id: string, limit: number, from?: string, to?: string): EventDto[];
  latestTransitions(limit: number, cluster?: string, notableOnly?: boolean): Transition[];
  /** How many transitions an object has recorded (what tests compare with the simulator's ground truth). */
  countTransitions(id: string): number;

  /** Retention: drops what is older than the configured window (keeping each series' latest point). */
  prune(now: Date): void;
  /** Writes whatever is queued now. */
  flush(): void;
  close(): void;
}
