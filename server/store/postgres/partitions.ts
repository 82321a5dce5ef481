import 'server-only';
import type { Pool } from 'pg';

/** The tables range-partitioned by month on `at`. */
export const partitionedTables = ['condition_transitions', 'replica_samples'] as const;
export type PartitionedTable = (typeof partitionedTables)[number];

const NAME = /^(condition_transitions|replica_samples)_p(\d{4})_(\d{2})$/;

/** `YYYY-MM` of a time (UTC). */
function monthOf(at: Date): { year: number; month: number } {
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 };
}

function partitionName(table: PartitionedTable, year: number, month: number): string {
  return `${table}_p${String(year).padStart(4, '0')}_${String(month).padStart(2, '0')}`;
}

function monthStart(year: number, month: number): string {
  return new Date(Date.UTC(year, month - 1, 1)).toISOString();
}

/**
 * Creates the monthly partitions that rows at `times` fall in, where missing. There is no default partition on
 * purpose: a default partition holding rows of a month blocks creating that month's partition later, and a
 * condition's lastTransitionTime can be years old. Concurrent replicas serialize on an advisory lock.
 */
export class PartitionManager {
  private readonly known = new Set<string>();

  constructor(private readonly pool: Pool) {}

  async ensureFor(table: PartitionedTable, times: readonly Date[]): Promise<void> {
    const wanted = new Map<string, { year: number; month: number }>();
    for (const t of times) {
      const m = monthOf(t);
      const name = partitionName(table, m.year, m.month);
      if (!this.known.has(name)) wanted.set(name, m);
    }
    if (wanted.size === 0) return;
    // Its own connection: DDL inside the caller's write transaction would hold its lock until that commits.
    const c = await this.pool.connect();
    try {
      for (const [name, { year, month }] of wanted) {
        const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
        await c.query('SELECT pg_advisory_lock(hashtext($1))', ['autoscope.partitions']);
        try {
          await c.query(
            `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${table} FOR VALUES FROM ('${monthStart(year, month)}') TO ('${monthStart(next.year, next.month)}')`,
          );
        } finally {
          await c.query('SELECT pg_advisory_unlock(hashtext($1))', ['autoscope.partitions']);
        }
        this.known.add(name);
      }
    } finally {
      c.release();
    }
  }

  /** The partitions of `table`, oldest first, with the month each holds. */
  async list(table: PartitionedTable): Promise<{ name: string; from: Date }[]> {
    const { rows } = await this.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
      [table],
    );
    return rows
      .map((r) => {
        const m = NAME.exec(r.name);
        return m ? { name: r.name, from: new Date(Date.UTC(Number(m[2]), Number(m[3]) - 1, 1)) } : null;
      })
      .filter((p): p is { name: string; from: Date } => p !== null)
      .sort((a, b) => a.from.getTime() - b.from.getTime());
  }

  /**
   * Retention: drops every partition whose whole month ends at or before `cutoff` — a month is kept while any of it
   * is inside the window, so rows live between `retention` and `retention + 1 month`. Returns the dropped names.
   */
  async dropBefore(cutoff: Date): Promise<string[]> {
    const dropped: string[] = [];
    for (const table of partitionedTables) {
      for (const p of await this.list(table)) {
        const end = new Date(Date.UTC(p.from.getUTCFullYear(), p.from.getUTCMonth() + 1, 1));
        if (end.getTime() > cutoff.getTime()) continue;
        await this.pool.query(`DROP TABLE IF EXISTS ${p.name}`);
        this.known.delete(p.name);
        dropped.push(p.name);
      }
    }
    return dropped;
  }
}
