import 'server-only';
import http from 'node:http';
import type { Registry } from 'prom-client';

/**
 * `/metrics` in Prometheus' text format on a port of its own (never the dashboard's: what a scraper may
 * reach and what users may reach are separate decisions, e.g. in a NetworkPolicy). Anything else is a 404.
 */
export function startMetricsServer(registry: Registry, host: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: metrics are at GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('collecting metrics failed\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
