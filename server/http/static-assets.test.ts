import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticAssets } from './static-assets';

/**
 * The static assets on a real node:http server, as scripts/serve.mjs runs the fast path, in front of a stand-in
 * for Next that answers 418 and notes what it was asked: a build's files come from memory, gzipped once, with the
 * headers Next gives them; everything the handler does not take reaches Next untouched.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'static-assets-'));
/** A file beside the static directory, which a path with `..` would reach. */
const secretFile = path.join(root, '..', `${path.basename(root)}-secret.js`);
const script = `${'export const rows = [];\n'.repeat(200)}console.log("autoscope");\n`;
const style = 'body{margin:0}';
const font = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
const toNext: string[] = [];
let server: http.Server;
let port = 0;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

function request(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // The path as written (a URL string would be normalized: `..` resolved, before the server could refuse it).
    const req = http.request({ host: '127.0.0.1', port, path: url, method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  mkdirSync(path.join(root, 'chunks'), { recursive: true });
  mkdirSync(path.join(root, 'media'), { recursive: true });
  writeFileSync(path.join(root, 'chunks', '0a1b2c.js'), script);
  writeFileSync(path.join(root, 'chunks', 'small.css'), style);
  writeFileSync(path.join(root, 'media', 'font.woff2'), font);
  writeFileSync(path.join(root, 'chunks', 'notes.unknown'), 'x');
  writeFileSync(secretFile, 'secret');
  const answer = staticAssets(root);
  server = http.createServer((req, res) => {
    if (answer(req, res)) return;
    toNext.push(`${req.method} ${req.url}`);
    res.writeHead(418);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(root, { recursive: true, force: true });
  rmSync(secretFile, { force: true });
});

describe('static assets from memory', () => {
  it('a script: gzip when the client takes it, the bytes of the file, immutable caching, the security headers', async () => {
    const a = await request('/_next/static/chunks/0a1b2c.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(a.status).toBe(200);
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(a.raw).toString('utf8')).toBe(script);
    expect(a.raw.length).toBeLessThan(Buffer.byteLength(script) / 4);
    expect(Number(a.headers['content-length'])).toBe(a.raw.length);
    expect(a.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(a.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(a.headers.vary).toBe('Accept-Encoding');
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(a.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // Asked again (from memory now), and with the deployment query Next may add: the same answer.
    const again = await request('/_next/static/chunks/0a1b2c.js?dpl=abc', { headers: { 'accept-encoding': 'gzip' } });
    expect(again.raw.equals(a.raw)).toBe(true);
    expect(again.headers.etag).toBe(a.headers.etag);
  });

  it('the file as it is to a client that does not take gzip; a small file and a font never compressed', async () => {
    const plain = await request('/_next/static/chunks/0a1b2c.js', { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.toString('utf8')).toBe(script);
    const css = await request('/_next/static/chunks/small.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers.vary).toBeUndefined();
    expect(css.headers['content-type']).toBe('text/css; charset=UTF-8');
    expect(css.raw.toString('utf8')).toBe(style);
    const woff = await request('/_next/static/media/font.woff2', { headers: { 'accept-encoding': 'gzip' } });
    expect(woff.headers['content-encoding']).toBeUndefined();
    expect(woff.headers['content-type']).toBe('font/woff2');
    expect(woff.raw.equals(font)).toBe(true);
  });

  it('a matching If-None-Match is a 304 without a body; HEAD has the headers and no body', async () => {
    const first = await request('/_next/static/chunks/0a1b2c.js');
    const etag = String(first.headers.etag);
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await request('/_next/static/chunks/0a1b2c.js', { headers: { 'if-none-match': tag } });
      expect(cached.status, tag).toBe(304);
      expect(cached.raw.length).toBe(0);
    }
    expect((await request('/_next/static/chunks/0a1b2c.js', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    const head = await request('/_next/static/chunks/0a1b2c.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(script));
  });

  it('leaves to Next what it does not take: a missing file, dot-segments, encoded paths, ranges, other methods, unknown types', async () => {
    toNext.length = 0;
    const secret = path.basename(secretFile);
    const asked = [
      ['GET', '/_next/static/chunks/missing.js', {}],
      ['GET', `/_next/static/../${secret}`, {}],
      ['GET', `/_next/static/%2e%2e/${secret}`, {}],
      ['GET', '/_next/static/chunks/%30a1b2c.js', {}],
      ['GET', '/_next/static//chunks/0a1b2c.js', {}],
      ['GET', '/_next/static/chunks/0a1b2c.js', { range: 'bytes=0-9' }],
      ['POST', '/_next/static/chunks/0a1b2c.js', {}],
      ['GET', '/_next/static/chunks/notes.unknown', {}],
      ['GET', '/_next/staticx/chunks/0a1b2c.js', {}],
      ['GET', '/_next/image?url=x', {}],
    ] as const;
    for (const [method, url, headers] of asked) {
      const a = await request(url, { method, headers });
      expect(a.status, `${method} ${url}`).toBe(418);
      expect(a.raw.toString('utf8')).not.toContain('secret');
    }
    expect(toNext).toHaveLength(asked.length);
  });
});
