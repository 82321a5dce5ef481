import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteFile } from './sqlite';
import type { SqliteWrite } from './sqlite-writer';
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

const count = (db: SqliteFile): number => (db.statement('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;

describe('startSqliteWriter', () => {
  it('commits each batch in one transaction, in the order posted, and says so by id', async () => {
    const { file, db } = database();
    const written: number[] = [];
    const writer = startSqliteWriter(file, {
      sql: ['INSERT INTO t (id, body) VALUES (?, ?)', 'UPDATE t SET body = ? WHERE id = ?'],
      pragmas: ['synchronous = NORMAL'],
      onWritten: (id) => written.push(id),
      onError: (e) => {
        throw e;
      },
    });
    await writer.started;
    for (let batch = 1; batch <= 20; batch++) {
      const writes: SqliteWrite[] = [];
      for (let i = 0; i < 100; i++) writes.push([0, [batch * 1000 + i, 'first']], [1, [`batch ${batch}`, batch * 1000 + i]]);
      writer.post(batch, writes);
    }
    await until(() => written.length === 20, 'twenty batches');
    expect(written).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // This connection reads what the thread committed: every row, each updated by the statement after its insert.
    expect(count(db)).toBe(2000);
    expect((db.statement("SELECT COUNT(*) AS n FROM t WHERE body LIKE 'batch %'").get() as { n: number }).n).toBe(2000);
    await writer.stop();
    db.close();
  });

  it('a failing batch is rolled back whole, reported once, and nothing after it is written', async () => {
    const { file, db } = database();
    const errors: Error[] = [];
    const written: number[] = [];
    const writer = startSqliteWriter(file, {
      sql: ['INSERT INTO t (id, body) VALUES (?, ?)'],
      pragmas: [],
      onWritten: (id) => written.push(id),
      onError: (e) => errors.push(e),
    });
    writer.post(1, [[0, [1, 'a']]]);
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
});
