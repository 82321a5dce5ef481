import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AutoscalerListResponseSchema, ErrorBodySchema } from '@/lib/api';
import { startSimulator } from '@/sim/index';
import type { World } from '@/sim/world/world';
import * as listRoute from '@/app/api/v1/autoscalers/route';
import * as triageRoute from '@/app/api/v1/triage/route';
import { loadConnections } from '@/server/clusters/connections';
import { acceptsGzip } from '@/server/http/accept-encoding';
import { answerFast } from '@/server/http/fast-path';
import { getMetrics } from '@/server/metrics/registry';
import { Autoscope, installAutoscope } from '@/server/runtime';
import { captureConsole, demoFleetSynced } from './harness';
import { until } from './until';

/**
 * The server's fast path (server/http/fast-path.ts) on a real node:http server, as scripts/serve.mjs runs it, in
 * front of a stand-in for Next that only says it was asked: the list and triage reads are answered as the app
 * routes answer them (same status and JSON, gzip when asked for, the security headers proxy.ts adds), and every
 * other request goes on to Next untouched.
 */
let world: World;
let app: Autoscope;
let server: http.Server;
let base: string;
const logLines: string[] = [];
const toNext: string[] = [];

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent (compressed when content-encoding says so). */
  raw: Buffer;
  text: string;
}

/** One request with node:http, so nothing decodes the body behind the test's back. */
function request(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A body without what is read off the clock: `generatedAt`, and each cluster's status beyond its name and state. */
function comparable(text: string): unknown {
  const {
    generatedAt: _at,
    clusters,
    ...rest
  } = JSON.parse(text) as { generatedAt?: string; clusters?: { name: string; state: string }[] };
  return { ...rest, clusters: clusters?.map((c) => `${c.name} ${c.state}`) };
}

/** What the app route itself answers for the same URL. */
async function viaRoute(handler: typeof listRoute.GET, url: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await handler(new NextRequest(`${base}${url}`), { params: Promise.resolve({}) });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

beforeAll(async () => {
  captureConsole(logLines);
  // Speed 1: the demo fleet changes rarely enough that two reads a moment apart usually agree.
  world = await startSimulator({ scenario: 'demo', speed: 1, dataDir: mkdtempSync(path.join(os.tmpdir(), 'fast-path-sim-')) });
  app = new Autoscope(
    { dataDir: mkdtempSync(path.join(os.tmpdir(), 'fast-path-data-')), retentionDays: 30 },
    loadConnections({ KUBECONFIG: world.fleet.kubeconfigPath }),
  );
  installAutoscope(app);
  await demoFleetSynced(app);
  server = http.createServer((req, res) => {
    if (answerFast(req, res)) return;
    toNext.push(`${req.method} ${req.url}`);
    res.writeHead(299, { 'content-type': 'text/plain' }).end('next');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.stop();
  installAutoscope(undefined);
  await world.stop();
  vi.restoreAllMocks();
});

describe('the fast path answers the list and triage reads as their app routes do', () => {
  const cases: [string, typeof listRoute.GET, string][] = [
    ['a list page', listRoute.GET, '/api/v1/autoscalers?limit=7&sort=name'],
    ['a filtered, searched list', listRoute.GET, '/api/v1/autoscalers?health=failing&q=a&limit=50'],
    ['the triage queue', triageRoute.GET, '/api/v1/triage'],
    ['a filtered triage queue', triageRoute.GET, '/api/v1/triage?cluster=prod-eu-west-1'],
  ];
  for (const [what, handler, url] of cases) {
    it(`${what}: same status and JSON, gzip when the client takes it, the security headers`, async () => {
      // The fleet may change between the two reads; a moment later they agree.
      const [fast, route] = await until(
        async () => Promise.all([request(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } }), viaRoute(handler, url)] as const),
        ([f, r]) => JSON.stringify(comparable(f.text)) === JSON.stringify(comparable(r.text)),
        20_000,
      );
      expect(fast.status).toBe(200);
      expect(fast.status).toBe(route.status);
      expect(comparable(fast.text)).toEqual(comparable(route.text));
      expect(Object.keys(JSON.parse(fast.text) as object)).toEqual(Object.keys(JSON.parse(route.text) as object));
      expect(fast.headers['content-type']).toBe(route.headers.get('content-type'));
      expect(fast.headers['cache-control']).toBe('no-store');
      expect(fast.headers['content-length']).toBe(String(fast.raw.length));
      if (fast.text.length >= 1024) {
        expect(fast.headers['content-encoding']).toBe('gzip');
        expect(fast.headers.vary).toBe('Accept-Encoding');
        expect(fast.raw.length).toBeLessThan(fast.text.length);
      } else {
        expect(fast.headers['content-encoding']).toBeUndefined();
      }
      expect(fast.headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(fast.headers['x-content-type-options']).toBe('nosniff');
      expect(fast.headers['x-frame-options']).toBe('DENY');
      expect(fast.headers['referrer-policy']).toBe('same-origin');
    });
  }

  it('sends the body as it is to a client that does not take gzip', async () => {
    const res = await request('/api/v1/autoscalers?limit=100', { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.raw.length).toBeGreaterThan(1024);
    const page = AutoscalerListResponseSchema.parse(JSON.parse(res.text));
    expect(page.items).toHaveLength(Math.min(100, page.total));
  });

  it('answers bad input with the route’s 400 and JSON error body, and a stale cursor the same way', async () => {
    for (const url of ['/api/v1/autoscalers?limit=0', '/api/v1/autoscalers?cursor=not-a-cursor', '/api/v1/triage?health=sideways']) {
      const handler = url.startsWith('/api/v1/triage') ? triageRoute.GET : listRoute.GET;
      const [fast, route] = await Promise.all([request(url), viaRoute(handler, url)]);
      expect(fast.status, url).toBe(400);
      expect(fast.status, url).toBe(route.status);
      expect(ErrorBodySchema.parse(JSON.parse(fast.text)), url).toEqual(ErrorBodySchema.parse(JSON.parse(route.text)));
      expect(fast.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('records each answer in the request-duration histogram under the route’s pattern', async () => {
    const count = async (): Promise<number> => {
      const metric = await getMetrics().httpRequestDuration.get();
      return metric.values
        .filter((v) => v.metricName?.endsWith('_count') && v.labels.route === '/api/v1/triage' && v.labels.status === '200')
        .reduce((sum, v) => sum + v.value, 0);
    };
    const before = await count();
    await request('/api/v1/triage');
    await request('/api/v1/triage');
    expect(await count()).toBe(before + 2);
  });

  it('leaves every other request to Next: other methods, other paths, a trailing slash, an encoded path, pages', async () => {
    toNext.length = 0;
    const others: [string, string][] = [
      ['HEAD', '/api/v1/autoscalers'],
      ['POST', '/api/v1/autoscalers'],
      ['DELETE', '/api/v1/triage'],
      ['GET', '/api/v1/autoscalers/'],
      ['GET', '/api/v1/triage/'],
      ['GET', '/api/v1/%61utoscalers'],
      ['GET', '/api/v1/clusters'],
      ['GET', '/api/v1/stream'],
      ['GET', '/api/healthz'],
      ['GET', '/triage?health=failing'],
      ['GET', '/'],
    ];
    for (const [method, url] of others) expect((await request(url, { method })).status, `${method} ${url}`).toBe(299);
    expect(toNext).toEqual(others.map(([method, url]) => `${method} ${url}`));
  });
});

describe('acceptsGzip: the Accept-Encoding header', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['deflate, br', false],
    ['identity', false],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*', true],
    ['*;q=0', false],
    ['br, *;q=0.5', true],
  ])('%j → %s', (header, taken) => {
    expect(acceptsGzip(header)).toBe(taken);
  });
});
