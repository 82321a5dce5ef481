import 'server-only';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import { contentSecurityPolicy, newNonce, securityHeaders } from '@/lib/http/security-headers';
import { acceptsGzip, compressFrom } from './accept-encoding';

/**
 * The build's static assets (`/_next/static/…`: the page scripts, styles, fonts) answered from memory, each read and
 * gzipped once. Next serves them through its whole pipeline — proxy.ts included — and gzips every response anew:
 * 9–13 ms of the server's CPU a script on the triage bench, ten scripts a page load, all queued on the event loop
 * that also applies the fleet's changes, so a page's scripts arrived 0.3–0.7 s after they were asked for. Their
 * names carry a hash of their content (the build never changes a file under a name), so compressing once is
 * the whole job; no library does that and only that (serve-static and sirv send files as they are, or
 * precompressed copies the build would have to write), hence these few lines.
 *
 * Taken: `GET`/`HEAD` of a file under the static directory with a known type, without a `Range`. Anything else —
 * a missing file, a path with `..` or an encoded character, another method — goes to Next, which answers as before.
 */

/** The content types of what a Next build puts under `static/`. */
const types: Record<string, string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.mjs': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.map': 'application/json; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.txt': 'text/plain; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};
/** Already compressed: gzip would only cost CPU. */
const compressed = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.woff', '.woff2']);
const prefix = '/_next/static/';
/** A path segment as a Next build names files: nothing to decode, no dot-segments. */
const segment = /^[A-Za-z0-9_~@+=-][A-Za-z0-9._~@+=-]*$/;
const gzipAsync = promisify(gzip);

interface Asset {
  type: string;
  body: Buffer;
  /** The gzip of `body`, when it is worth sending. */
  gzipped: Buffer | null;
  etag: string;
}

export type AssetAnswer = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The answer for `/_next/static/…` from the directory `root` (the build's `static/`); false: not taken, Next answers. */
export function staticAssets(root: string): AssetAnswer {
  // Per file, once: the read is synchronous (the first request for a file only, a few hundred KiB at most), the
  // gzip on libuv's pool. Failed reads are not kept, so a wrong path costs a stat each time, as it does in Next.
  const assets = new Map<string, Promise<Asset>>();
  const load = (rel: string, ext: string, type: string): Promise<Asset> | null => {
    const known = assets.get(rel);
    if (known) return known;
    let body: Buffer;
    try {
      body = readFileSync(path.join(root, rel));
    } catch {
      return null;
    }
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const asset = (
      body.length >= compressFrom && !compressed.has(ext) ? gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }) : Promise.resolve(null)
    ).then(
      (gz): Asset => ({ type, body, gzipped: gz && gz.length < body.length ? gz : null, etag }),
      (): Asset => ({ type, body, gzipped: null, etag }),
    );
    assets.set(rel, asset);
    return asset;
  };

  return (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url?.startsWith(prefix) || req.headers.range) return false;
    const query = req.url.indexOf('?');
    const rel = req.url.slice(prefix.length, query < 0 ? undefined : query);
    const parts = rel.split('/');
    if (!parts.every((p) => segment.test(p))) return false;
    const ext = path.extname(rel).toLowerCase();
    const type = types[ext];
    if (!type) return false;
    const asset = load(parts.join(path.sep), ext, type);
    if (!asset) return false;
    void asset.then((a) => send(a, req, res));
    return true;
  };
}

function send(asset: Asset, req: IncomingMessage, res: ServerResponse): void {
  const headers: Record<string, string> = Object.fromEntries(securityHeaders(contentSecurityPolicy(newNonce(), process.env)));
  headers['cache-control'] = 'public, max-age=31536000, immutable';
  headers['content-type'] = asset.type;
  headers.etag = asset.etag;
  if (asset.gzipped) headers.vary = 'Accept-Encoding';
  if (ifNoneMatch(req.headers['if-none-match'], asset.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  let body = asset.body;
  if (asset.gzipped && acceptsGzip(req.headers['accept-encoding'])) {
    body = asset.gzipped;
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = String(body.length);
  res.writeHead(200, headers);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** Whether an If-None-Match header names the tag (or `*`); weak tags compare by their value, as RFC 9110 says for GET. */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
