import 'server-only';
import type { Autoscaler } from '@/lib/api';

/** One change to the index's DTOs: `old` left, `now` took its place (null when the id came or went). */
export interface DtoChange {
  old: Autoscaler | null;
  now: Autoscaler | null;
}

/**
 * The index's revisions: a revision per change, one per cluster, and the last changes themselves, so
 * views kept incrementally (sort orders, filtered sets) catch up from where they were built and a view
 * further behind than the journal reaches rebuilds. `journal[i]` made revision `base + i + 1`.
 */
export class ChangeJournal {
  private journal: DtoChange[] = [];
  private base = 0;
  private revision = 0;
  private readonly clusters = new Map<string, number>();

  /** `capacity(size)`: how many changes to keep for an index of `size` entries. */
  constructor(private readonly capacity: (size: number) => number = (size) => 4096 + (size >> 3)) {}

  get version(): number {
    return this.revision;
  }

  clusterVersion(cluster: string): number {
    return this.clusters.get(cluster) ?? 0;
  }

  record(cluster: string, old: Autoscaler | null, now: Autoscaler | null, size: number): void {
    this.revision += 1;
    this.clusters.set(cluster, this.clusterVersion(cluster) + 1);
    this.journal.push({ old, now });
    // Kept to a few seconds of churn: a view further behind rebuilds, which costs what one sort costs.
    if (this.journal.length > this.capacity(size)) {
      const drop = this.journal.length >> 1;
      this.journal = this.journal.slice(drop);
      this.base += drop;
    }
  }

  /**
   * Forgets the changes up to and including `revision`: the views kept incrementally have all taken them in. Without
   * it the journal holds what its capacity allows (several seconds of a churning fleet's changes), and each change holds
   * the DTO it replaced, alive for nothing. A view further back than this rebuilds, as one past the capacity does.
   */
  release(revision: number): void {
    const drop = Math.min(revision, this.revision) - this.base;
    if (drop <= 0) return;
    this.journal = this.journal.slice(drop);
    this.base += drop;
  }

  /** The changes after `revision`, oldest first; null when the journal no longer reaches back that far. */
  changesSince(revision: number): readonly DtoChange[] | null {
    if (revision < this.base || revision > this.revision) return null;
    return this.journal.slice(revision - this.base);
  }
}
