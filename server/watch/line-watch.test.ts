import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { LineWatch } from './line-watch';

/**
 * LineWatch against a real HTTP server that answers a watch request with scripted lines: what reaches the callback,
 * in which order, when `defer` runs it, and how each kind of end is reported.
 */
const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(answer: (res: ServerResponse, url: URL) => void): Promise<{ config: KubeConfig; urls: URL[] }> {
  const urls: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    urls.push(url);
    answer(res, url);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
    currentContext: 'c',
  });
  return { config, urls };
}

const event = (type: string, name: string): string =>
  JSON.stringify({ type, object: { kind: 'HorizontalPodAutoscaler', metadata: { name, resourceVersion: name } } }) + '\n';

function watcher() {
  const seen: string[] = [];
  let resolveDone: (err: unknown) => void = () => undefined;
  const ended = new Promise<unknown>((r) => (resolveDone = r));
  const callback = (phase: string, object: unknown): void => {
    seen.push(`${phase} ${(object as { metadata: { name: string } }).metadata.name}`);
  };
  const done = (err: unknown): void => {
    seen.push(`done ${err instanceof Error ? err.name : String(err)}`);
    resolveDone(err);
  };
  return { seen, ended, callback, done };
}

describe('LineWatch', () => {
  it('hands each line to defer unparsed and in order, and the end after them', async () => {
    const { config, urls } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Two events in one chunk, a line that is not JSON, one more event, then the server ends the stream.
      res.write(event('ADDED', 'a') + event('MODIFIED', 'b') + 'not json\n');
      setTimeout(() => res.end(event('DELETED', 'c')), 20);
    });
    const queued: (() => void)[] = [];
    const w = watcher();
    const watch = new LineWatch(config, { idleMs: 5_000, defer: (work) => queued.push(work) });
    let heard = 0;
    await watch.watch(
      '/apis/autoscaling/v2/horizontalpodautoscalers',
      { resourceVersion: '7', allowWatchBookmarks: true },
      w.callback,
      w.done,
      () => (heard += 1),
    );
    await new Promise((r) => setTimeout(r, 200));
    // Everything waits in the queue: nothing was parsed or reported while the stream delivered…
    expect(w.seen).toEqual([]);
    // …but each line was heard as it arrived (the cluster answered then, whenever the line is parsed).
    expect(heard).toBe(4);
    expect(queued).toHaveLength(5);
    for (const work of queued.splice(0)) work();
    expect(w.seen).toEqual(['ADDED a', 'MODIFIED b', 'DELETED c', 'done null']);
    const url = urls[0] as URL;
    expect(url.pathname).toBe('/apis/autoscaling/v2/horizontalpodautoscalers');
    expect(Object.fromEntries(url.searchParams)).toEqual({ watch: 'true', resourceVersion: '7', allowWatchBookmarks: 'true' });
  });

  it('ends a request answered with an error at once, before it resolves, with the status code', async () => {
    const { config } = await serve((res) => {
      res.writeHead(410, { 'content-type': 'application/json' });
      res.end('{"kind":"Status","code":410}');
    });
    const queued: (() => void)[] = [];
    const w = watcher();
    const watch = new LineWatch(config, { idleMs: 5_000, defer: (work) => queued.push(work) });
    await watch.watch('/api/v1/events', {}, w.callback, w.done);
    expect(queued).toEqual([]);
    const err = (await w.ended) as Error & { statusCode?: number };
    expect(err.statusCode).toBe(410);
    expect(err.message).toBe('Gone');
  });

  it('ends a stream silent for longer than its limit with a timeout, after what it delivered', async () => {
    const { config } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(event('ADDED', 'a'));
      // …and nothing more.
    });
    const w = watcher();
    const watch = new LineWatch(config, { idleMs: 300 });
    const started = performance.now();
    await watch.watch('/apis/autoscaling/v2/horizontalpodautoscalers', {}, w.callback, w.done);
    await w.ended;
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(w.seen).toEqual(['ADDED a', 'done TimeoutError']);
  });

  it('without a queue delivers at once, and a callback that throws does not end the stream', async () => {
    const { config } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(event('ADDED', 'a') + event('ADDED', 'b'));
    });
    const w = watcher();
    const watch = new LineWatch(config, { idleMs: 5_000 });
    let calls = 0;
    await watch.watch(
      '/apis/autoscaling/v2/horizontalpodautoscalers',
      {},
      (phase, object) => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        w.callback(phase, object);
      },
      w.done,
    );
    await w.ended;
    expect(w.seen).toEqual(['ADDED b', 'done null']);
  });
});
