import 'server-only';
import type http from 'node:http';
import { getAccess } from './access/access';
import { readConfig, readOperationsConfig } from './config';
import { installFastPath } from './http/fast-path';
import { errorText, log } from './log';
import { registerCollectors } from './metrics/collectors';
import { startMetricsServer } from './metrics/metrics-server';
import { getMetrics } from './metrics/registry';
import { currentAutoscope, getAutoscope } from './runtime';

/** How long a shutdown may take before the process exits anyway (Kubernetes' grace period is 30 s by default). */
const shutdownDeadlineMs = 10_000;

const globalKey = Symbol.for('autoscope.lifecycle');
type Holder = { [globalKey]?: boolean };

/**
 * The server process' start (from instrumentation.ts): the backend starts watching at once rather than
 * on the first request, the metrics endpoint opens on its own port, and SIGTERM/SIGINT stop gracefully —
 * SSE streams closed, watches stopped, the queued history written — and exit 0 within 10 s.
 *
 * The signal handlers are ours only when `NEXT_MANUAL_SIG_HANDLE` is set (the image and `npm start` set
 * it); otherwise Next's own handler exits with 143, and the `exit` hook still writes the queued history
 * to SQLite (better-sqlite3 writes synchronously, so it can; PostgreSQL needs the graceful path).
 */
export async function startLifecycle(env: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  const holder = globalThis as Holder;
  if (holder[globalKey]) return;
  holder[globalKey] = true;

  const ops = readOperationsConfig(env);
  try {
    // Sign-in settings, the policy file and the settings read from the environment are checked before anything is
    // served: one line says what is wrong.
    getAccess();
    readConfig(env);
  } catch (err) {
    log.error(`Autoscope cannot start: ${errorText(err)}`);
    process.exit(1);
  }
  getAutoscope();
  // scripts/serve.mjs answers the hot JSON reads with the app routes' own handlers, ahead of Next's pipeline.
  installFastPath();
  process.once('exit', () => void currentAutoscope()?.stop());

  let metricsServer: http.Server | null = null;
  if (ops.metricsPort !== null) {
    const { registry } = getMetrics();
    registerCollectors(registry, currentAutoscope);
    try {
      metricsServer = await startMetricsServer(registry, ops.metricsHost, ops.metricsPort);
      log.info('metrics endpoint', {
        url: `http://${ops.metricsHost.includes(':') ? `[${ops.metricsHost}]` : ops.metricsHost}:${ops.metricsPort}/metrics`,
      });
    } catch (err) {
      // The dashboard keeps serving; only the scrape target is missing, and this line says why.
      log.error('metrics endpoint failed to start', { port: ops.metricsPort, error: errorText(err) });
    }
  }

  if (env.NEXT_MANUAL_SIG_HANDLE) {
    const shutdown = (signal: NodeJS.Signals): void => {
      log.info('shutting down', { signal });
      setTimeout(() => {
        log.error('shutdown took too long; exiting', { deadlineMs: shutdownDeadlineMs });
        process.exit(1);
      }, shutdownDeadlineMs).unref();
      // The queued history is written before the exit (PostgreSQL's writes are asynchronous).
      const stopped = (currentAutoscope()?.stop() ?? Promise.resolve()).catch((err: unknown) =>
        log.error('stopping the backend failed', { error: errorText(err) }),
      );
      const done = (): void => {
        void stopped.then(() => {
          log.info('stopped', { signal });
          process.exit(0);
        });
      };
      if (metricsServer) metricsServer.close(done);
      else done();
      metricsServer?.closeAllConnections();
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  }
}
