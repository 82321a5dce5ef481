import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteFile } from './sqlite';

const file = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'sqlite-')), 'a.db');

describe('SqliteFile', () => {
  it('compiles each SQL text once and hands the same statement back', () => {
    const db = new SqliteFile(file());
    db.exec('CREATE TABLE t (n INTEGER)');
    const insert = db.statement('INSERT INTO t (n) VALUES (?)');
    expect(db.statement('INSERT INTO t (n) VALUES (?)')).toBe(insert);
    expect(db.statement('SELECT COUNT(*) AS c FROM t')).not.toBe(insert);
    insert.run(1);
    insert.run(2);
    expect(db.statement('SELECT COUNT(*) AS c FROM t').get()).toEqual({ c: 2 });
    db.close();
  });

  it('sets pragmas through kept statements', () => {
    const db = new SqliteFile(file());
    expect(db.pragma('journal_mode = WAL')).toEqual({ journal_mode: 'wal' });
    expect(db.pragma('journal_mode')).toEqual({ journal_mode: 'wal' });
    expect(db.pragma('synchronous = NORMAL')).toBeUndefined();
    expect(db.pragma('synchronous')).toEqual({ synchronous: 1 });
    db.close();
  });

  it('runs a transaction as one: a throw inside leaves nothing written', () => {
    const db = new SqliteFile(file());
    db.exec('CREATE TABLE t (n INTEGER)');
    expect(() =>
      db.transaction(() => {
        db.statement('INSERT INTO t (n) VALUES (?)').run(1);
        throw new Error('midway');
      }),
    ).toThrow('midway');
    db.transaction(() => void db.statement('INSERT INTO t (n) VALUES (?)').run(2));
    expect(db.statement('SELECT n FROM t').all()).toEqual([{ n: 2 }]);
    db.close();
  });

  it('refuses to run a kept statement once the file is closed', () => {
    const db = new SqliteFile(file());
    const select = db.statement('SELECT 1 AS one');
    db.close();
    expect(() => select.get()).toThrow(/not open/);
  });
});

describe('SqliteFile and the Node ≥ 24.19 ObjectWrap abort (docs/toolchain.md, trap 16)', () => {
  const fixture = path.join(import.meta.dirname, 'sqlite-exit.fixture.ts');
  const run = (mode: 'kept' | 'garbage') =>
    spawnSync(process.execPath, ['--import', 'tsx', fixture, mode], { encoding: 'utf8', timeout: 60_000 });
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const affected = major > 24 || (major === 24 && minor >= 19);

  it('a process whose statements are all kept exits cleanly', () => {
    const child = run('kept');
    expect({ status: child.status, signal: child.signal, stderr: child.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  });

  // The control: on the Node versions with the new ObjectWrap, statements left to the collector abort the
  // process as it exits, so the test above would fail if SqliteFile stopped keeping them.
  it.runIf(affected)(`statements left to the garbage collector abort Node ${process.versions.node} on its way out`, () => {
    const child = run('garbage');
    expect(child.signal).toBe('SIGABRT');
    expect(child.stderr).toContain('RemoveEnvironmentCleanupHook');
  });
});
