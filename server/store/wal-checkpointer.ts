import { startSqliteThread } from './sqlite-thread';

/**
 * Checkpoints a SQLite database's write-ahead log from a thread of its own, so the event loop never waits on it.
 *
 * In WAL mode with `synchronous = NORMAL` a commit only appends to the log; the checkpoint that copies the log back
 * into the database is where SQLite calls fsync (the log's, then the database's). By default the connection that
 * commits runs it, once the log passes 1,000 pages: on this project's bench machine one took 50–230 ms of blocked
 * event loop, and history commits (a few ms each) had a p99 of ~75 ms; without the fsyncs the p99 was ~15 ms
 * (docs/performance.md). Here the writing connection turns its automatic checkpoints off and a worker thread, with
 * its own connection, runs a PASSIVE checkpoint every `intervalMs`: it copies what no reader still needs and never
 * blocks the writer, and once the log is copied whole the writer's next commit starts it over, so it stays small.
 * Durability is unchanged: NORMAL never promised a commit survives a power loss before its checkpoint.
 *
 * The thread runs the script below from a string (`eval`), so the bundler leaves it alone; it loads better-sqlite3 as
 * the server does (an external package, resolved from the working directory). Its one statement is compiled once and
 * kept: better-sqlite3 12 on Node ≥ 24.19 aborts when a statement is collected outside a JavaScript context
 * (docs/toolchain.md, trap 16), so nothing of it becomes garbage before the thread ends.
 */
const script = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const db = new Database(workerData.file);
// A PASSIVE checkpoint never waits on a lock (it calls no busy handler), so the connection needs no other setting.
// Its one statement is referenced from the handlers below for the life of the thread (trap 16).
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const run = () => {
  try {
    const r = checkpoint.get();
    parentPort.postMessage({ type: 'checkpoint', busy: r.busy, log: r.log, checkpointed: r.checkpointed });
  } catch (error) {
    parentPort.postMessage({ type: 'error', message: String(error && error.message || error) });
  }
};
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  run();
  db.close();
  parentPort.postMessage({ type: 'stopped' });
  parentPort.close();
});
parentPort.postMessage({ type: 'started' });
`;

export interface CheckpointResult {
  /** The log's size in pages, and how many of them are now in the database. */
  log: number;
  checkpointed: number;
}

export interface WalCheckpointer {
  /** Resolves once the thread has opened the database (rejects when it could not start). */
  readonly started: Promise<void>;
  /** A last checkpoint, then the thread's connection is closed and the thread ends. */
  stop(): Promise<void>;
}

export interface WalCheckpointerOptions {
  intervalMs?: number;
  /** Told of every checkpoint the thread ran (tests and metrics listen). */
  onCheckpoint?: (result: CheckpointResult) => void;
  /** Told when the thread fails: the caller turns the connection's own checkpoints back on. */
  onError?: (error: Error) => void;
}

export function startWalCheckpointer(file: string, options: WalCheckpointerOptions = {}): WalCheckpointer {
  const thread = startSqliteThread(script, {
    name: 'WAL checkpoint',
    label: 'wal-checkpointer',
    workerData: { file, intervalMs: options.intervalMs ?? 500 },
    stopMessage: 'stop',
    onMessage: (m) => {
      if (m.type === 'checkpoint') options.onCheckpoint?.({ log: Number(m.log ?? 0), checkpointed: Number(m.checkpointed ?? 0) });
    },
    // The caller checkpoints on commit from now on: the thread, terminated, no longer holds a connection.
    onError: (error) => options.onError?.(error),
  });
  return { started: thread.started, stop: () => thread.stop() };
}
