/**
 * The BFF as its own process for the reliability and failover suites, so it can be killed with SIGKILL and
 * restarted on the same data: the backend (`server/runtime`) behind the real route handlers of the routes the
 * suites read (the event stream included), on 127.0.0.1:$PORT. Run with `node --import tsx --conditions=react-server` (the
 * condition makes `server-only` resolve as it does inside Next's server bundle).
 */
import http from 'node:http';
import { NextRequest } from 'next/server';
import * as clustersRoute from '@/app/api/v1/clusters/route';
import * as listRoute from '@/app/api/v1/autoscalers/route';
import * as historyRoute from '@/app/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/history/route';
import * as readyRoute from '@/app/api/readyz/route';
import * as streamRoute from '@/app/api/v1/stream/route';
import { loadConnections } from '@/server/clusters/connections';
import { readConfig } from '@/server/config';
import { Autoscope, installAutoscope } from '@/server/runtime';

type Handler = (req: NextRequest, ctx: never) => Promise<Response>;

const app = new Autoscope(readConfig(), loadConnections({ KUBECONFIG: process.env.KUBECONFIG }));
installAutoscope(app);

function route(pathname: string): { handler: Handler; params: Record<string, string> } | null {
  if (pathname === '/api/readyz') return { handler: readyRoute.GET, params: {} };
  if (pathname === '/api/v1/clusters') return { handler: clustersRoute.GET, params: {} };
  if (pathname === '/api/v1/autoscalers') return { handler: listRoute.GET, params: {} };
  if (pathname === '/api/v1/stream') return { handler: streamRoute.GET, params: {} };
  const m = /^\/api\/v1\/autoscalers\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\/history$/.exec(pathname);
  if (m) return { handler: historyRoute.GET, params: { cluster: m[1] ?? '', kind: m[2] ?? '', namespace: m[3] ?? '', name: m[4] ?? '' } };
  return null;
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const target = route(url.pathname);
  if (!target) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'not_found', message: 'no such route in the reliability BFF' } }));
    return;
  }
  // The request's signal ends when the client goes away, so an event stream is closed as it is in Next.
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const request = new NextRequest(`http://127.0.0.1${req.url ?? '/'}`, { signal: abort.signal });
  target
    .handler(request, { params: Promise.resolve(target.params) } as never)
    .then(async (response) => {
      res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'application/json' });
      if (!response.body) return void res.end();
      // Streamed as it comes (the event stream never ends by itself).
      const reader = response.body.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
      res.end();
    })
    .catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } }));
    });
});
server.listen(Number(process.env.PORT ?? 3201), '127.0.0.1');

process.on('SIGTERM', () => {
  server.close();
  void app.stop().finally(() => process.exit(0));
});
