import { Worker } from 'node:worker_threads';
import type { ResourceLimits, TransferListItem } from 'node:worker_threads';

/**
 * The life of a thread that works beside the event loop (the WAL checkpointer and the history writer, each on a SQLite
 * database; the held HPAs' compressor, `server/fleet/held-compressor.ts`, which opens none): started from a script in
 * a string (`eval`, so the bundler leaves it alone — docs/toolchain.md, trap 18), unreferenced so it never keeps an
 * idle process alive, and ended in one of two ways: asked to stop (the script
 * finishes its work, closes its connection and answers `stopped`), or failed — an `error` message, an uncaught throw,
 * or an exit nobody asked for — which is reported once, after which the thread is terminated and takes no more work.
 *
 * The script answers `{ type: 'started' }` once its connection is open and `{ type: 'error', message }` on a failure;
 * every other message goes to `onMessage`. It is sent `stopMessage` when asked to stop.
 */
export interface SqliteThreadOptions {
  /** Names the thread in errors: "the <name> thread exited with code 1". */
  name: string;
  /** Names it in `threadBusySeconds` (the metric's `thread` label): `history-writer`, `wal-checkpointer`, … */
  label: string;
  workerData: unknown;
  stopMessage: unknown;
  onMessage: (message: ThreadMessage) => void;
  /** Told once when the thread fails. */
  onError: (error: Error) => void;
  /** V8's limits for the thread's own heap (`Worker`'s `resourceLimits`). */
  resourceLimits?: ResourceLimits;
}

export interface ThreadMessage {
  type: string;
  message?: string;
  [key: string]: unknown;
}

export interface SqliteThread {
  /** Resolves once the thread has opened the database (rejects when it could not start). */
  readonly started: Promise<void>;
  /** Whether the thread has failed (it takes no more messages then). */
  readonly failed: boolean;
  /** Posts a message unless the thread has failed (what `transfer` lists moves to the thread). */
  post(message: unknown, transfer?: readonly TransferListItem[]): void;
  /** Asks the thread to finish and resolves once it has (at once if it failed). */
  stop(): Promise<void>;
}

/**
 * The threads' busy time, for `autoscope_thread_busy_seconds_total`: each live thread read from its event loop, what
 * ended threads had done kept by label, so the figure only grows. On `globalThis`, since each server bundle has a copy
 * of this module and the metrics are read from whichever bundle answers the scrape.
 */
interface BusyLedger {
  live: Set<{ label: string; busyMs: () => number }>;
  ended: Map<string, number>;
}
const ledgerKey = Symbol.for('autoscope.threadBusy');
const ledger = ((globalThis as Record<symbol, unknown>)[ledgerKey] ??= { live: new Set(), ended: new Map() }) as BusyLedger;

/**
 * Seconds each kind of thread has spent working since the process started (the history writer, the WAL checkpointer,
 * the held HPAs' compressor; several of one kind summed): its event loop's active time
 * (`Worker.performance.eventLoopUtilization`), the time it spent handling its messages — its CPU, plus the moments it
 * waited for a core meanwhile (at a 100,000-HPA cold start on two cores the compressor was busy 5.4 s for ~3 s of CPU).
 * A thread that gains about a second a second cannot keep up, for want of CPU or of speed.
 */
export function threadBusySeconds(): Map<string, number> {
  const ms = new Map(ledger.ended);
  for (const thread of ledger.live) ms.set(thread.label, (ms.get(thread.label) ?? 0) + thread.busyMs());
  return new Map([...ms].map(([label, total]) => [label, total / 1000]));
}

export function startSqliteThread(script: string, options: SqliteThreadOptions): SqliteThread {
  const worker = new Worker(script, {
    eval: true,
    workerData: options.workerData,
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
  });
  worker.unref();
  // Read while the thread runs: once it has exited its event loop reads as never busy.
  let busyMs = 0;
  const busy = {
    label: options.label,
    busyMs: () => (busyMs = Math.max(busyMs, worker.performance.eventLoopUtilization().active)),
  };
  ledger.live.add(busy);
  const retire = (): void => {
    if (!ledger.live.delete(busy)) return;
    ledger.ended.set(options.label, (ledger.ended.get(options.label) ?? 0) + busy.busyMs());
  };
  let failure: Error | null = null;
  let resolveStarted: () => void = () => {};
  let rejectStarted: (error: Error) => void = () => {};
  const started = new Promise<void>((resolve, reject) => {
    resolveStarted = resolve;
    rejectStarted = reject;
  });
  // A start that fails is reported through onError; an unobserved `started` must not become an unhandled rejection.
  started.catch(() => {});
  let stopped: (() => void) | null = null;
  let stopping: Promise<void> | null = null;
  const fail = (error: Error): void => {
    if (failure) return;
    failure = error;
    rejectStarted(error);
    stopped?.();
    retire();
    void worker.terminate();
    options.onError(error);
  };
  worker.on('message', (m: ThreadMessage) => {
    if (m.type === 'started') resolveStarted();
    else if (m.type === 'stopped') {
      retire();
      stopped?.();
    } else if (m.type === 'error') fail(new Error(`${options.name}: ${m.message ?? 'unknown error'}`));
    else options.onMessage(m);
  });
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) => {
    retire();
    stopped?.();
    if (!stopping) fail(new Error(`the ${options.name} thread exited with code ${code}`));
  });
  return {
    started,
    get failed() {
      return failure !== null;
    },
    post(message, transfer) {
      if (!failure) worker.postMessage(message, transfer);
    },
    stop(): Promise<void> {
      stopping ??= failure
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            stopped = resolve;
            worker.postMessage(options.stopMessage);
          });
      return stopping;
    },
  };
}
