import { deflateRawSync } from 'node:zlib';
import { startSqliteThread } from '../store/sqlite-thread';
import type { SqliteThread } from '../store/sqlite-thread';

/**
 * Deflates held HPAs' JSON against an index's dictionary on a thread of its own, so the event loop never does.
 *
 * Deflating one HPA is ~30 µs of zlib (set up for every call: Node has no deflater that can be reset and reused
 * synchronously, and the ~5 KB dictionary is hashed each time) and its garbage; on the bench's busy machine twice that.
 * Done as each version was written, it made a 100,000-HPA cold start 17 s longer (41.5 → 58.1 s, 4.3× the floor) and
 * every watch event ~60 µs dearer. Here the event loop hands the JSON's bytes over in batches (one message for what
 * gathered in `GATHER_MS`, the batch's bytes copied into one transferred buffer; the deflated bytes come back the same
 * way, and each HPA's are copied into its index's arena, `HeldArena`). Until they come, a version is held as
 * its plain bytes, outside V8's heap: held as text on the heap, the versions waiting during a cold start died in the
 * old space and left it fragmented (runs AR–AT, docs/performance.md). At most `MAX_WAITING` wait; past that, or once
 * the thread has failed, a version is deflated on the event loop as it is written. A cold start's versions (up to
 * `MAX_DEFERRED`) are not sent at all until its index is whole (`endDeferral`): on two cores the sync kept busy, the
 * thread's ~3 s of deflating 100,000 HPAs lengthened it by about half that (docs/performance.md, 2026-11-30, second session).
 *
 * The thread is started with the dictionary and runs a script from a string (`eval`, so the bundler leaves it alone:
 * docs/toolchain.md, trap 18); its life (started, failed, stopped) is `startSqliteThread`'s, which knows nothing of
 * SQLite but the name.
 */
const script = `
const { parentPort, workerData } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
const dictionary = Buffer.from(workerData.dictionary);
parentPort.on('message', (m) => {
  if (m === 'stop') {
    parentPort.postMessage({ type: 'stopped' });
    parentPort.close();
    return;
  }
  try {
    const plain = new Uint8Array(m.bytes);
    const packed = [];
    for (let i = 0, at = 0; i < m.lengths.length; at += m.lengths[i], i++)
      packed.push(deflateRawSync(plain.subarray(at, at + m.lengths[i]), { dictionary }));
    const joined = Buffer.concat(packed);
    const bytes = joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.length);
    parentPort.postMessage({ type: 'deflated', bytes, lengths: packed.map((p) => p.length) }, [bytes]);
  } catch (error) {
    parentPort.postMessage({ type: 'error', message: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ type: 'started' });
`;

/** What waits for its bytes: told them once they are made (or made here, if the thread failed). */
export interface Deflatable {
  /** Its deflated bytes: a view the holder copies from, valid only during the call. */
  deflatedTo(bytes: Uint8Array): void;
}

/** Deflated on the event loop: what the thread does, for when it cannot. */
export function deflateHere(plain: Uint8Array, dictionary: Buffer): Uint8Array {
  return deflateRawSync(plain, { dictionary });
}

/** Versions gathered for at most `GATHER_MS` are one message; more than this many, several. */
const BATCH = 512;
/**
 * How long versions gather before they go to the thread. Sent at the end of every turn of the event loop, a fleet's
 * churn went over a version or two a message: at 20,000 HPAs (372 watch events a second) the event loop spent 189 ms
 * of a 15-second window in the compressor's `postMessage` (a CPU profile of the bench's churn, profiler overhead
 * included). A version waits as its plain bytes meanwhile, which read the same.
 */
const GATHER_MS = 20;
/** Versions waiting for the thread at most (~6 MB of plain JSON); more are deflated on the event loop. */
export const MAX_WAITING = 4096;
/**
 * Versions a cold start leaves for the thread until its index is whole, at most (`HeldCompressor.deferring`): ~180 MB
 * of plain JSON at ~1.4 KB an HPA, so a fleet of 100,000 is deferred whole and a larger one's first 131,072 are.
 */
export const MAX_DEFERRED = 131_072;
/** Deferred batches in flight at once, as the thread works through them: one deflating, one waiting behind it. */
const DEFERRED_IN_FLIGHT = 2;

/** A version given to be deflated: who waits for its bytes, and its plain JSON meanwhile. */
interface Given {
  held: Deflatable;
  plain: Uint8Array;
}

export class HeldCompressor {
  private readonly thread: SqliteThread;
  /** Given, not yet sent: sent after `GATHER_MS`, or at once when they make a `BATCH`. */
  private queued: Given[] = [];
  /** Sent, in order: the thread answers each batch in the order it came. */
  private readonly inFlight: Given[][] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private failed = false;
  /** `queued`, `deferred` (from `deferredAt`) and `inFlight`'s lengths together. */
  private waiting = 0;
  /** Given while deferring: sent, a batch at a time, once the deferral ends (`endDeferral`). */
  private deferred: Given[] = [];
  /** The first of `deferred` not yet sent. */
  private deferredAt = 0;
  private deferring: boolean;
  private readonly maxDeferred: number;

  constructor(
    private readonly dictionary: Buffer,
    onError: (error: Error) => void = () => {},
    options: {
      /**
       * A cold start's versions are kept plain, not sent, until `endDeferral` (up to `maxDeferred`): the thread's
       * deflating, ~30 µs an HPA on a core the sync needs, then comes after the index is whole.
       */
      deferring?: boolean;
      /** `MAX_DEFERRED` (the tests' is small). */
      maxDeferred?: number;
    } = {},
  ) {
    this.deferring = options.deferring ?? false;
    this.maxDeferred = options.maxDeferred ?? MAX_DEFERRED;
    this.thread = startSqliteThread(script, {
      name: 'held HPA compressor',
      label: 'held-compressor',
      workerData: { dictionary: new Uint8Array(dictionary) },
      stopMessage: 'stop',
      // A small heap: it holds one batch's bytes at a time (default limits let a young generation grow to tens of MiB).
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
      onMessage: (m) => {
        if (m.type !== 'deflated') return;
        const batch = this.inFlight.shift() ?? [];
        this.waiting -= batch.length;
        const joined = new Uint8Array(m.bytes as ArrayBuffer);
        const lengths = m.lengths as number[];
        // Each one is copied out by its holder (into its index's arena): kept as made on the thread, the long-lived
        // small buffers sat between zlib's large short-lived ones in that thread's allocator arena, which then could not
        // shrink (100,000 HPAs in a test: 321 MiB more RSS, against 102 MiB deflated on the event loop).
        for (let i = 0, at = 0; i < batch.length; at += lengths[i] ?? 0, i++)
          batch[i]?.held.deflatedTo(joined.subarray(at, at + (lengths[i] ?? 0)));
        this.sendDeferred();
      },
      onError: (error) => {
        this.failed = true;
        // What the thread had, and what waits to be sent, is deflated here.
        this.waiting -= this.inFlight.reduce((n, b) => n + b.length, 0);
        for (const batch of this.inFlight.splice(0))
          for (const { held, plain } of batch) held.deflatedTo(deflateHere(plain, this.dictionary));
        this.queued = this.queued.concat(this.takeDeferred(Number.POSITIVE_INFINITY));
        this.flush();
        onError(error);
      },
    });
  }

  /** Whether it takes another version now (else its writer deflates it on the event loop). */
  get accepts(): boolean {
    if (this.failed) return false;
    if (this.defers) return true;
    // What was deferred waits apart: the churn's versions go on to the thread while it is sent.
    return this.pending - this.deferredCount < MAX_WAITING;
  }

  /** The deferral ends: what it kept is sent, a batch at a time as the thread answers (`DEFERRED_IN_FLIGHT`). */
  endDeferral(): void {
    if (!this.deferring) return;
    this.deferring = false;
    this.sendDeferred();
  }

  /** Whether the next version given is deferred (a cold start's, up to `maxDeferred`). */
  private get defers(): boolean {
    return this.deferring && this.deferred.length < this.maxDeferred;
  }

  /** Versions deferred and not yet sent. */
  get deferredCount(): number {
    return this.deferred.length - this.deferredAt;
  }

  private sendDeferred(): void {
    if (this.deferring || this.failed) return;
    while (this.deferredCount > 0 && this.inFlight.length < DEFERRED_IN_FLIGHT) {
      this.queued.push(...this.takeDeferred(BATCH));
      this.flush();
    }
  }

  /** Up to `n` of the deferred versions, taken in order (the list is let go once all are). */
  private takeDeferred(n: number): Given[] {
    const taken = this.deferred.slice(this.deferredAt, this.deferredAt + n);
    this.deferredAt += taken.length;
    if (this.deferredAt >= this.deferred.length) {
      this.deferred = [];
      this.deferredAt = 0;
    }
    return taken;
  }

  /**
   * `held`'s plain bytes (which it keeps until then), to be deflated: `held.deflatedTo` is told the result on a later
   * turn. Only when `accepts`.
   */
  deflate(held: Deflatable, plain: Uint8Array): void {
    this.waiting += 1;
    if (this.defers) {
      this.deferred.push({ held, plain });
      return;
    }
    this.queued.push({ held, plain });
    if (this.queued.length >= BATCH) this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), GATHER_MS);
      // Nothing to wait for at exit: what was not sent stays plain, and reads the same.
      this.flushTimer.unref();
    }
  }

  /** Versions given and not yet deflated (sent or waiting to be). */
  get pending(): number {
    return this.waiting;
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.queued.length === 0) return;
    const batch = this.queued;
    this.queued = [];
    if (this.failed) {
      this.waiting -= batch.length;
      for (const { held, plain } of batch) held.deflatedTo(deflateHere(plain, this.dictionary));
      return;
    }
    this.inFlight.push(batch);
    const lengths = batch.map((b) => b.plain.length);
    const bytes = new ArrayBuffer(lengths.reduce((n, l) => n + l, 0));
    const into = new Uint8Array(bytes);
    for (let i = 0, at = 0; i < batch.length; at += lengths[i] ?? 0, i++) into.set((batch[i] as { plain: Uint8Array }).plain, at);
    this.thread.post({ bytes, lengths }, [bytes]);
  }

  /** Ends the thread; what it had not answered stays plain (its holders read that). */
  stop(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    return this.thread.stop();
  }
}
