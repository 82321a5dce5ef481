import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteFile } from './sqlite';
import type { SqliteWrite } from './sqlite-writer';
import { threadBusySeconds } from './sqlite-thread';
import { startSqliteWriter } from './sqlite-writer';

const until = async (done: () => boolean, what: string): Promise<void> => {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

function database(): { file: string; db: SqliteFile } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'writer-')), 'h.db');
  const db = new SqliteFile(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  return { file, db };
}

const insert = 'INSERT INTO t (id, body) VALUES (?, ?)';

/** A new database and a writer of `sql` to it: what it acknowledges is pushed to `written`, what it reports to `errors`. */
function writerOf(sql: string[]): { db: SqliteFile; writer: ReturnType<typeof startSqliteWriter>; written: number[]; errors: Error[] } {
  const { file, db } = database();
  const written: number[] = [];
  const errors: Error[] = [];
  const writer = startSqliteWriter(file, {
    sql,
    pragmas: ['synchronous = NORMAL'],
    onWritten: (id) => written.push(id),
    onError: (e) => errors.push(e),
  });
  return { db, writer, written, errors };
}

const count = (db: SqliteFile): number => (db.statement('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;

describe('startSqliteWriter', () => {
  it('commits the batches in the order posted, and says so by id, the last acknowledged covering every earlier one', async () => {
    const { db, writer, written, errors } = writerOf([insert, 'UPDATE t SET body = ? WHERE id = ?']);
    await writer.started;
    for (let batch = 1; batch <= 20; batch++) {
      const writes: SqliteWrite[] = [];
      for (let i = 0; i < 100; i++) writes.push([0, [batch * 1000 + i, 'first']], [1, [`batch ${batch}`, batch * 1000 + i]]);
      writer.post(batch, writes);
    }
    await until(() => written.at(-1) === 20, 'twenty batches');
    // Acknowledged in order; batches that waited while the thread wrote may share one acknowledgement.
    expect(written).toEqual([...written].sort((a, b) => a - b));
    expect(new Set(written).size).toBe(written.length);
    // This connection reads what the thread committed: every row, each updated by the statement after its insert.
    expect(count(db)).toBe(2000);
    expect((db.statement("SELECT COUNT(*) AS n FROM t WHERE body LIKE 'batch %'").get() as { n: number }).n).toBe(2000);
    expect(errors).toEqual([]);
    await writer.stop();
    db.close();
  });

  it('a failing batch is rolled back whole, reported once, and nothing after it is written', async () => {
    const { db, writer, written, errors } = writerOf([insert]);
    await writer.started;
    writer.post(1, [[0, [1, 'a']]]);
    await until(() => written.length === 1, 'the first batch');
    // The second row repeats the first one's key: the batch fails, and its first row must not stay.
    writer.post(2, [
      [0, [2, 'b']],
      [0, [1, 'again']],
    ]);
    writer.post(3, [[0, [3, 'c']]]);
    await until(() => errors.length > 0, 'the failure');
    await new Promise((r) => setTimeout(r, 100));
    expect(written).toEqual([1]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/UNIQUE constraint failed/);
    expect(db.statement('SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 1 }]);
    await writer.stop();
    db.close();
  });

  it('commits the batches that waited for the thread in one transaction, up to 20,000 writes', async () => {
    const { db, writer, written, errors } = writerOf([insert]);
    // Posted before the thread has opened the database: all three wait for it.
    const batch = (first: number): SqliteWrite[] => Array.from({ length: 15_000 }, (_, i) => [0, [first + i, 'x']] as const);
    writer.post(1, batch(0));
    writer.post(2, batch(15_000));
    writer.post(3, batch(30_000));
    await until(() => written.at(-1) === 3, 'three batches');
    // The first two in one transaction (30,000 writes, past the bound), the third in the next.
    expect(written).toEqual([2, 3]);
    expect(count(db)).toBe(45_000);
    expect(errors).toEqual([]);
    await writer.stop();
    db.close();
  });

  it('counts the time its thread spends writing, and keeps it once the thread has stopped', async () => {
    // Process-wide (every writer these tests start adds to it): read before and after.
    const busy = (): number => threadBusySeconds().get('history-writer') ?? 0;
    const { db, writer, written } = writerOf([insert]);
    await writer.started;
    const before = busy();
    for (let batch = 1; batch <= 5; batch++)
      writer.post(
        batch,
        Array.from({ length: 10_000 }, (_, i) => [0, [batch * 100_000 + i, 'x'.repeat(200)]] as const),
      );
    await until(() => written.at(-1) === 5, 'five batches');
    const wrote = busy();
    // 50,000 inserts take a thread tens of milliseconds at the least; the event loop's idle wait counts for nothing.
    expect(wrote - before).toBeGreaterThan(0.02);
    await new Promise((r) => setTimeout(r, 300));
    expect(busy() - wrote).toBeLessThan(0.05);
    await writer.stop();
    // Its thread has ended: what it did stays counted.
    expect(busy()).toBeGreaterThanOrEqual(wrote);
    db.close();
  });

  it('a batch that fails rolls back the batches committed with it; none of them is acknowledged', async () => {
    const { db, writer, written, errors } = writerOf([insert]);
    // All three wait for the thread, so they share a transaction; the second repeats the first one's key.
    writer.post(1, [[0, [1, 'a']]]);
    writer.post(2, [[0, [1, 'again']]]);
    writer.post(3, [[0, [3, 'c']]]);
    await until(() => errors.length > 0, 'the failure');
    await new Promise((r) => setTimeout(r, 100));
    expect(errors).toHaveLength(1);
    expect(written).toEqual([]);
    expect(count(db)).toBe(0);
    await writer.stop();
    db.close();
  });
});
