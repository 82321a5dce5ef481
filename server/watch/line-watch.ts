import 'server-only';
import { STATUS_CODES } from 'node:http';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { KubeConfig, Watch } from '@kubernetes/client-node';
import { HttpMethod, RequestContext } from '@kubernetes/client-node';
import { fetch } from 'undici';
import { errorText, log } from '../log';

export interface LineWatchOptions {
  /** The longest wait for the response, then between two chunks of the stream, before the watch is ended (a timeout). */
  idleMs: number;
  /**
   * Where each line of the stream is parsed and handed on, and the stream's end reported, in the order they came:
   * the runtime's ingest queue. Without it, at once.
   */
  defer?: (work: () => void) => void;
}

/** Without a queue: at once, and what the callback throws is logged (client-node swallowed it; a stream must not die of it). */
function immediately(work: () => void): void {
  try {
    work();
  } catch (error) {
    log.error('a watch event could not be handled', { error: errorText(error) });
  }
}

type WatchCallback = Parameters<Watch['watch']>[2];
type WatchDone = Parameters<Watch['watch']>[3];

/**
 * A watch request, as client-node 2.0.1's `Watch` makes it (src/watch.ts: the same URL, authentication, inactivity
 * limit and end), except for where a line becomes an object. client-node parses each line of a chunk and calls back
 * with it inside the stream's `data` callback, so a chunk of a busy cluster's stream (a controller pass writes
 * hundreds of statuses at once) was parsed, cached and queued in one piece: 15–30 ms in which no request was answered
 * (docs/performance.md, 2026-11-28). Here the line is handed to `defer` as it is, and parsed there with what follows
 * it (caching, sharing its strings, queueing its mapping), in the ingest queue's slices between requests. The stream's
 * end is deferred too, so ListWatch hears of it after the events that came before it and resumes from the last of
 * them. Lines that are not JSON are skipped, as client-node skips them.
 */
export class LineWatch {
  constructor(
    private readonly config: KubeConfig,
    private readonly options: LineWatchOptions,
  ) {}

  async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: WatchCallback,
    done: WatchDone,
    /** Told of each line as it arrives, before `defer`: the server answered now, whenever the line is parsed. */
    heard?: () => void,
  ): Promise<AbortController> {
    const cluster = this.config.getCurrentCluster();
    if (!cluster) throw new Error('No currently active cluster');
    const url = new URL(cluster.server + path);
    url.searchParams.set('watch', 'true');
    for (const [key, value] of Object.entries(queryParams)) if (value !== undefined) url.searchParams.set(key, String(value));
    const defer = this.options.defer ?? immediately;
    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const clearTimer = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
    const resetTimer = (): void => {
      clearTimer();
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      }, this.options.idleMs);
      timer.unref();
    };
    let ended = false;
    /** The stream opened: lines may be waiting in `defer`, and its end is reported after them. */
    let streaming = false;
    const end = (err: unknown): void => {
      if (ended) return;
      ended = true;
      clearTimer();
      controller.abort();
      const reported = err && timedOut ? new DOMException('The operation was aborted due to timeout', 'TimeoutError') : err;
      // A request that failed before its stream opened ends at once, before the returned promise resolves (as
      // client-node's does: the informer reads "ended already" as "never opened").
      if (streaming) defer(() => done(reported));
      else done(reported);
    };
    const context = new RequestContext(url.toString(), HttpMethod.GET);
    await this.config.applySecurityAuthentication(context);
    try {
      resetTimer();
      const response = await fetch(url, {
        method: 'GET',
        headers: context.getHeaders(),
        dispatcher: context.getDispatcher(),
        signal: controller.signal,
      });
      if (response.status !== 200) {
        const error = new Error(response.statusText || STATUS_CODES[response.status] || 'Internal Server Error');
        (error as Error & { statusCode: number }).statusCode = response.status;
        throw error;
      }
      // The response is in: from here on the limit is between chunks.
      streaming = true;
      resetTimer();
      if (!response.body) throw new Error('watch response without a body');
      const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
      body.on('error', end);
      body.on('close', () => end(null));
      body.on('data', resetTimer);
      const lines = createInterface({ input: body, crlfDelay: Number.POSITIVE_INFINITY });
      lines.on('error', end);
      lines.on('close', () => end(null));
      lines.on('line', (line: string) => {
        // What readline still holds once the stream ended is a line cut short: nothing to parse.
        if (ended) return;
        heard?.();
        defer(() => {
          let event: { type?: unknown; object?: unknown };
          try {
            event = JSON.parse(line) as { type?: unknown; object?: unknown };
          } catch {
            return;
          }
          callback(String(event.type), event.object, event);
        });
      });
    } catch (err) {
      end(err);
    }
    return controller;
  }
}
