/**
 * `npm run bench:sqlite`: how long a history commit holds the thread that makes it, with SQLite's WAL checkpointed
 * on commit (its default: the commit that fills the log past 1,000 pages copies it back and fsyncs) and from a
 * thread of its own (`startWalCheckpointer`, what the server does). Rows shaped like condition transitions, in
 * transactions of 300 (a 5 ms history slice's worth), into a table indexed as `condition_transitions` is.
 * BENCH_TRANSACTIONS (default 1,000) sets the length.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteFile } from '../server/store/sqlite';
import { startWalCheckpointer } from '../server/store/wal-checkpointer';

const transactions = Number(process.env.BENCH_TRANSACTIONS ?? 1000);
const rowsPerTransaction = 300;

async function run(label: string, thread: boolean): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-sqlite-'));
  const file = path.join(dir, 'history.db');
  const db = new SqliteFile(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  if (thread) db.pragma('wal_autocheckpoint = 0');
  const checkpointer = thread ? startWalCheckpointer(file) : null;
  await checkpointer?.started;
  db.exec(`CREATE TABLE t (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL,
             reason TEXT, message TEXT, at TEXT NOT NULL, notable INTEGER NOT NULL);
           CREATE INDEX t_by_id ON t (id, type, at); CREATE INDEX t_by_at ON t (at); CREATE INDEX t_notable ON t (notable, at);`);
  const insert = 'INSERT INTO t (id, type, status, reason, message, at, notable) VALUES (?, ?, ?, ?, ?, ?, ?)';
  const times: number[] = [];
  let n = 0;
  const started = performance.now();
  for (let tx = 0; tx < transactions; tx++) {
    const t = performance.now();
    db.transaction(() => {
      for (let i = 0; i < rowsPerTransaction; i++, n++) {
        db.statement(insert).run(
          `bench-${String(n % 50).padStart(3, '0')}/HorizontalPodAutoscaler/team-a/svc-${(n * 7919) % 100_000}`,
          'AbleToScale',
          'True',
          'ReadyForNewScale',
          'the last scale time was sufficiently old as to warrant a new scale',
          new Date(1.79e12 + n * 10).toISOString(),
          n & 1,
        );
      }
    });
    times.push(performance.now() - t);
    // The server commits once a turn of the event loop; the thread checkpoints meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const total = performance.now() - started;
  await checkpointer?.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const at = (p: number): string => (times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN).toFixed(1);
  console.info(
    `${label.padEnd(36)} commit p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  max ${at(1)} ms  ≥ 20 ms: ${times.filter((x) => x >= 20).length} of ${times.length}  (${((total * 1000) / n).toFixed(1)} µs a row, wall)`,
  );
}

run('checkpointed on commit (default)', false)
  .then(() => run('checkpointed from a thread', true))
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
