import 'server-only';
import type { Viewer } from '../access/access';
import { batchMs } from '../fleet/change-bus';
import type { Autoscope } from '../runtime';
import type { PreparedBytes } from './prepared-bytes';
import { preparedBody, preparedJson } from './row-json';

/** Options of `SharedAnswers`; see the constructor. */
export interface SharedAnswerOptions {
  /** An answer is shared for at most this long after it was made. */
  maxAgeMs: number;
  /** How many answers are kept; the least recently made goes first. */
  maxEntries: number;
  now: () => number;
}

interface Entry {
  /** Plain until the fast path gzips them, then the gzip alone (prepared-bytes.ts). */
  body: PreparedBytes;
  made: number;
  /** The change bus's `sequence` when it was made. */
  sequence: number;
}

/**
 * Answers of the list and triage reads shared by identical requests (same route, query and scope) that arrive
 * while nothing was announced since the first one was made. Twenty people on the Triage page during an incident
 * each refetch the same queue after the same `changed` message; with one thread answering, twenty identical
 * computations queue behind each other (docs/performance.md: a closed loop of twenty clients waits twenty service
 * times). The first request makes the answer; the others within its life get the same bytes (and, on the fast path,
 * the same gzip of them).
 *
 * An answer lives until the change bus sends its next message (a batch of changed ids, a cluster's state) or for
 * `maxAgeMs` — one batch of the stream, 250 ms — whichever comes first. So a shared answer never predates a change
 * the stream has announced to anyone: a browser that refetches after a `changed` message gets an answer made after
 * it. With no stream open no batch is sent, and an answer is at most 250 ms older than the index, as it would be
 * for someone who asked 250 ms earlier. Errors (4xx) are never shared; each request makes its own. The viewer's
 * access is decided per request before the lookup, and the key holds the scope (two people whose rules grant the
 * same globs share it, as they share the kept views).
 *
 * An answer that can no longer be shared is let go at once (by the next read, else `maxAgeMs` later): kept until
 * `maxEntries` newer ones pushed it out, a client that paged through 100,000 autoscalers 500 at a time left its last
 * 64 pages' bodies (~45 MiB, with their gzip) held for as long as nothing else was read.
 */
export class SharedAnswers {
  /** In the order they were made (an answer made again moves to the end), so those past sharing come first. */
  private readonly entries = new Map<string, Entry>();
  private readonly options: SharedAnswerOptions;
  private sweep: NodeJS.Timeout | null = null;
  /** Answers made and answers shared since the process started (for the metrics). */
  readonly counts = { made: 0, shared: 0 };

  constructor(
    private readonly sequence: () => number,
    options: Partial<SharedAnswerOptions> = {},
  ) {
    this.options = { maxAgeMs: batchMs, maxEntries: 64, now: () => performance.now(), ...options };
  }

  /** The answer for `key`: a live shared one, else `make()`'s, kept when it is a prepared 200. */
  answer(key: string, make: () => Response): Response {
    const now = this.options.now();
    const sequence = this.sequence();
    this.expire(now, sequence);
    const hit = this.entries.get(key);
    if (hit && hit.sequence === sequence && now - hit.made < this.options.maxAgeMs) {
      this.counts.shared += 1;
      return preparedJson(hit.body);
    }
    const response = make();
    const body = preparedBody(response);
    if (response.status !== 200 || !body) return response;
    this.counts.made += 1;
    this.entries.delete(key);
    this.entries.set(key, { body, made: now, sequence });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.sweepLater();
    return response;
  }

  /** Lets go of the answers no read can be given any more: made before the bus's last message, or `maxAgeMs` old. */
  private expire(now: number, sequence: number): void {
    // Made in order, and the bus's sequence only grows: the expired ones are the first.
    for (const [key, entry] of this.entries) {
      if (entry.sequence === sequence && now - entry.made < this.options.maxAgeMs) break;
      this.entries.delete(key);
    }
  }

  /** An expiry `maxAgeMs` from now while answers are kept, for when no read comes to do it. */
  private sweepLater(): void {
    if (this.sweep) return;
    this.sweep = setTimeout(() => {
      this.sweep = null;
      this.expire(this.options.now(), this.sequence());
      if (this.entries.size > 0) this.sweepLater();
    }, this.options.maxAgeMs);
    // Nothing to wait for at exit.
    this.sweep.unref();
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.entries.size;
  }
}

const sharedOf = new WeakMap<Autoscope, SharedAnswers>();

/** The shared answers of an app (one per app, made on first use). */
export function sharedAnswersOf(app: Autoscope): SharedAnswers {
  let shared = sharedOf.get(app);
  if (!shared) {
    shared = new SharedAnswers(() => app.bus.sequence);
    sharedOf.set(app, shared);
  }
  return shared;
}

/** The key of a read: its route, the viewer's scope and the query exactly as sent. */
export function answerKey(route: string, viewer: Viewer, search: string): string {
  return `${route}\n${viewer.scope.key}\n${search}`;
}
