import { startSqliteThread } from './sqlite-thread';

/**
 * Runs a SQLite database's writes on a thread of its own, so the event loop never waits on them.
 *
 * History writes were ~4–5% of the request thread under churn and ~9 s of it during a 100,000-HPA sync
 * (docs/performance.md): each row is an insert into indexed tables, ~10–20 µs. Here the caller encodes each write as
 * the index of one of a fixed set of statements plus its parameters (`sql[op]`, `args`), posts a batch, and the
 * thread runs the batch in one transaction on its own connection and says when it is committed. Batches are
 * committed in the order they were posted, so the last one acknowledged means every earlier one is stored too. Batches
 * that arrived while the thread was writing are committed together (group commit, up to `MERGE_WRITES` writes): a
 * sync's first sights insert into indexes keyed by autoscaler, and a small transaction each rewrote the same index
 * pages into the log at every commit (100,000 first sights replayed: ~46 µs each in transactions of 100, ~35 in
 * transactions of 5,000).
 * What the caller still does: decide the writes, encode them (an array of primitives), and read — in WAL mode its own
 * connection reads what the thread committed, and never blocks the writer.
 *
 * A batch crosses to the thread as one JSON string, parsed there. `postMessage` of the arrays themselves (the structured
 * clone of a hundred-odd small arrays of strings) took the event loop 8–18 ms a second under the 100,000-HPA bench's
 * churn, against 1.4–2.7 ms for `JSON.stringify` of the same batches (measured side by side in the BFF); the parse runs
 * on the thread. JSON keeps what a write holds (strings, finite numbers, null) and turns `undefined` and `NaN` into
 * null, as binding them does.
 *
 * The thread runs the script below from a string (`eval`), so the bundler leaves it alone; it loads better-sqlite3
 * as the server does (an external package, resolved from the working directory), as the WAL checkpoint thread does.
 * Every statement is compiled once and kept for the life of the thread: better-sqlite3 12 on Node ≥ 24.19 aborts
 * when a statement is collected outside a JavaScript context (docs/toolchain.md, trap 16).
 */
const script = `
const { parentPort, receiveMessageOnPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const Database = require('better-sqlite3');
let db;
let statements;
let begin, commit, rollback;
// After a failure nothing more is written: the caller writes every batch not acknowledged itself, in order.
let failed = false;
const kept = [];
const report = (error) => {
  failed = true;
  parentPort.postMessage({ type: 'error', message: String((error && error.message) || error) });
};
const pragma = (setting) => {
  const s = db.prepare('PRAGMA ' + setting);
  kept.push(s);
  if (s.reader) s.get();
  else s.run();
};
try {
  db = new Database(workerData.file);
  for (const p of workerData.pragmas) pragma(p);
  statements = workerData.sql.map((sql) => db.prepare(sql));
  begin = db.prepare('BEGIN');
  commit = db.prepare('COMMIT');
  rollback = db.prepare('ROLLBACK');
} catch (error) {
  report(error);
  throw error;
}
// Batches that waited while the thread wrote are committed together, up to this many writes: when the thread falls
// behind (a sync queues thousands of rows a second on a machine it shares), one transaction a batch rewrote the same
// index pages into the log at every commit.
const MERGE_WRITES = 20000;
const onMessage = (m) => {
  if (m.type === 'stop') {
    db.close();
    parentPort.postMessage({ type: 'stopped' });
    parentPort.close();
    return;
  }
  if (failed) return;
  if (m.type === 'pragma') {
    try {
      pragma(m.setting);
    } catch (error) {
      report(error);
    }
    return;
  }
  const started = performance.now();
  let id = m.id;
  let after = null;
  try {
    begin.run();
    let writes = JSON.parse(m.writes);
    for (let n = 0; ; ) {
      for (const [op, args] of writes) statements[op].run(args);
      n += writes.length;
      if (n >= MERGE_WRITES) break;
      const next = receiveMessageOnPort(parentPort);
      if (!next) break;
      if (next.message.type !== 'write') {
        after = next.message;
        break;
      }
      id = next.message.id;
      writes = JSON.parse(next.message.writes);
    }
    commit.run();
    parentPort.postMessage({ type: 'written', id, seconds: (performance.now() - started) / 1000 });
  } catch (error) {
    try {
      if (db.inTransaction) rollback.run();
    } catch {}
    report(error);
  }
  // A message taken from the port while merging (a pragma, the stop) is handled after what came before it.
  if (after) onMessage(after);
};
parentPort.on('message', onMessage);
parentPort.postMessage({ type: 'started' });
`;

/** One write: the index of a statement in `SqliteWriterOptions.sql`, and its parameters. */
export type SqliteWrite = readonly [op: number, args: readonly unknown[]];

export interface SqliteWriterOptions {
  /** The statements a batch may run, by index. */
  sql: readonly string[];
  /** Settings of the thread's connection, each as `PRAGMA <setting>` (synchronous, busy_timeout, …). */
  pragmas: readonly string[];
  /** Told how long each batch's transaction took, in seconds, once committed. */
  onWritten: (id: number, seconds: number) => void;
  /** Told once when the thread fails: batches posted and not acknowledged were not committed. */
  onError: (error: Error) => void;
}

export interface SqliteWriter {
  /** Resolves once the thread has opened the database (rejects when it could not start). */
  readonly started: Promise<void>;
  /** Posts a batch: each `[op, args]` is `sql[op]` run with `args`, all in one transaction, after every batch posted before. */
  post(id: number, writes: readonly SqliteWrite[]): void;
  /** A setting changed on the thread's connection (after the batches already posted). */
  pragma(setting: string): void;
  /** Once the batches posted are written, the thread's connection is closed and the thread ends. */
  stop(): Promise<void>;
}

export function startSqliteWriter(file: string, options: SqliteWriterOptions): SqliteWriter {
  const thread = startSqliteThread(script, {
    name: 'history writer',
    label: 'history-writer',
    workerData: { file, sql: options.sql, pragmas: options.pragmas },
    stopMessage: { type: 'stop' },
    // A young generation of at most 12 MiB: with V8's default the cold start's large batches grew it by tens of MiB,
    // kept after; capped, 30-60 MiB less RSS for the same writes in the same time (100,000 autoscalers' first sight
    // and churn, docs/performance.md).
    resourceLimits: { maxYoungGenerationSizeMb: 12 },
    onMessage: (m) => {
      if (m.type === 'written') options.onWritten(Number(m.id ?? 0), Number(m.seconds ?? 0));
    },
    onError: options.onError,
  });
  return {
    started: thread.started,
    post: (id, writes) => thread.post({ type: 'write', id, writes: JSON.stringify(writes) }),
    pragma: (setting) => thread.post({ type: 'pragma', setting }),
    stop: () => thread.stop(),
  };
}
