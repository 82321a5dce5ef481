import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../history/history-store';
import { SqliteFile } from './sqlite';
import type { CheckpointResult } from './wal-checkpointer';
import { startWalCheckpointer } from './wal-checkpointer';

/** A WAL database whose writer never checkpoints on its own, and a way to write about `kib` KiB to it. */
function walDatabase(): { file: string; db: SqliteFile; write: (kib: number) => void; walBytes: () => number } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'wal-')), 'h.db');
  const db = new SqliteFile(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  let next = 0;
  const write = (kib: number): void =>
    db.transaction(() => {
      for (let i = 0; i < kib; i++) db.statement('INSERT INTO t (id, body) VALUES (?, ?)').run(next++, 'x'.repeat(1000));
    });
  const walBytes = (): number => {
    try {
      return statSync(`${file}-wal`).size;
    } catch {
      return 0;
    }
  };
  return { file, db, write, walBytes };
}

const until = async (done: () => boolean, what: string): Promise<void> => {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('startWalCheckpointer', () => {
  it('copies the log into the database from its thread, so the log stops growing while the writer goes on', async () => {
    const checkpoints: CheckpointResult[] = [];
    const { file, db, write, walBytes } = walDatabase();
    const checkpointer = startWalCheckpointer(file, { intervalMs: 20, onCheckpoint: (r) => checkpoints.push(r) });
    await checkpointer.started;
    for (let round = 0; round < 10; round++) {
      write(1024);
      const seen = checkpoints.length;
      // A whole log copied: the writer's next commit starts it over from the beginning. Two of them, since the first
      // reported after the write may have run before it.
      await until(() => checkpoints.slice(seen).filter((r) => r.log > 0 && r.checkpointed === r.log).length >= 2, 'complete checkpoints');
    }
    // Ten MiB written (in 10 rounds of 1 MiB); the log file holds a round's or two, not all of them.
    expect(walBytes()).toBeLessThan(4 * 1024 * 1024);
    await checkpointer.stop();
    expect((db.statement('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(10 * 1024);
    db.close();
  });

  it('without it (the control), the same writes leave the whole of them in the log', () => {
    const { db, write, walBytes } = walDatabase();
    for (let round = 0; round < 10; round++) write(1024);
    expect(walBytes()).toBeGreaterThan(10 * 1024 * 1024);
    db.close();
  });

  it('says so when it cannot start, and stop() still returns', async () => {
    const errors: Error[] = [];
    const checkpointer = startWalCheckpointer(path.join(os.tmpdir(), 'no-such-dir-for-wal', 'x', 'h.db'), {
      onError: (e) => errors.push(e),
    });
    await expect(checkpointer.started).rejects.toThrow(/directory does not exist|unable to open/i);
    expect(errors).toHaveLength(1);
    await checkpointer.stop();
  });
});

describe('HistoryStore with its checkpoint thread', () => {
  it('writes, checkpoints from the thread, closes it on close(), and a reopened store reads it all', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'history-wal-'));
    const store = new HistoryStore({ dataDir, retentionDays: 30, checkpointThread: true });
    expect(store.checkpointer).not.toBeNull();
    await store.checkpointer?.started;
    store.recordClusterState('prod', 'unreachable', '2026-11-25T08:00:00.000Z', 'connection refused');
    store.recordClusterState('prod', 'synced', '2026-11-25T08:01:00.000Z', null);
    await store.flush();
    await store.close();
    const file = new SqliteFile(path.join(dataDir, 'history.db'));
    const states = file.statement('SELECT state FROM cluster_states WHERE cluster = ? ORDER BY at').all('prod') as { state: string }[];
    expect(states.map((s) => s.state)).toEqual(['unreachable', 'synced']);
    file.close();
  });
});
