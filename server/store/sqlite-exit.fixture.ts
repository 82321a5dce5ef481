/**
 * Run by sqlite.test.ts in a child process: opens files through SqliteFile, runs a few thousand statements,
 * fills the heap so the statements age, and exits. `kept` compiles them through `statement()`; `garbage`
 * through better-sqlite3's own `prepare()`, leaving each to the garbage collector (docs/toolchain.md, trap 16).
 * The test runs `kept` only; `garbage` reproduces the abort by hand (`node --import tsx <this file> garbage`): on
 * Node 24.19.0–24.21.0 it aborted on every exit (10 of 10 each), on 24.22.1 and 24.22.3 rarely (0 of 20 here).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteFile } from './sqlite';

const mode = process.argv[2];
const dir = mkdtempSync(path.join(os.tmpdir(), 'sqlite-exit-'));
for (let k = 0; k < 20; k++) {
  const file = new SqliteFile(path.join(dir, `${k}.db`));
  file.pragma('journal_mode = WAL');
  file.exec('CREATE TABLE t (n INTEGER)');
  for (let i = 0; i < 2000; i++) {
    if (mode === 'kept') file.statement(`INSERT INTO t (n) VALUES (${i % 20})`).run();
    else file.db.prepare(`INSERT INTO t (n) VALUES (${i})`).run();
  }
  file.transaction(() => void file.statement('DELETE FROM t WHERE n = 0').run());
  if (k % 2) file.close();
}
const ballast: { i: number }[] = [];
for (let i = 0; i < 1_000_000; i++) ballast.push({ i });
setTimeout(() => process.exit(ballast.length > 0 ? 0 : 1), 100);
