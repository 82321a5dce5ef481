import 'server-only';
import path from 'node:path';
import type { V8Favor } from './v8-favor';

export interface AutoscopeConfig {
  dataDir: string;
  retentionDays: number;
  /** A cluster that answered nothing for this long is unreachable (AUTOSCOPE_UNREACHABLE_AFTER_SECONDS, default 10). */
  unreachableAfterMs?: number;
  /**
   * PostgreSQL instead of the embedded SQLite file (AUTOSCOPE_DATABASE_URL, a libpq URL): history is shared, and
   * each cluster is watched under a lease held in the database (docs/scale-out.md).
   */
  databaseUrl?: string;
  /** This process' name among the replicas sharing the database (AUTOSCOPE_REPLICA_ID; default: host name). */
  replicaName?: string;
  /** How long a cluster lease lasts without renewal, and how often it is renewed (tests shorten them). */
  leaseMs?: number;
  renewMs?: number;
  /**
   * What V8's collector favors once the index is whole (AUTOSCOPE_V8_FAVOR: `memory`, the default, or `speed`);
   * unset leaves V8 as it started (server/v8-favor.ts).
   */
  v8Favor?: V8Favor;
}

/** Settings from the environment (README's configuration table). */
export function readConfig(env: Readonly<Record<string, string | undefined>> = process.env): AutoscopeConfig {
  const retention = Number(env.AUTOSCOPE_RETENTION_DAYS ?? 30);
  const unreachable = Number(env.AUTOSCOPE_UNREACHABLE_AFTER_SECONDS ?? 10);
  const lease = Number(env.AUTOSCOPE_LEASE_SECONDS ?? 15);
  const leaseMs = (Number.isFinite(lease) && lease >= 3 ? lease : 15) * 1000;
  const favor = env.AUTOSCOPE_V8_FAVOR?.trim() || 'memory';
  if (favor !== 'memory' && favor !== 'speed') throw new Error(`AUTOSCOPE_V8_FAVOR must be "memory" or "speed", not "${favor}"`);
  return {
    dataDir: env.AUTOSCOPE_DATA_DIR
      ? path.resolve(/*turbopackIgnore: true*/ env.AUTOSCOPE_DATA_DIR)
      : path.join(process.cwd(), '.autoscope'),
    retentionDays: Number.isFinite(retention) && retention > 0 ? retention : 30,
    unreachableAfterMs: (Number.isFinite(unreachable) && unreachable > 0 ? unreachable : 10) * 1000,
    ...(env.AUTOSCOPE_DATABASE_URL?.trim() ? { databaseUrl: env.AUTOSCOPE_DATABASE_URL.trim() } : {}),
    ...(env.AUTOSCOPE_REPLICA_ID?.trim() ? { replicaName: env.AUTOSCOPE_REPLICA_ID.trim() } : {}),
    // A cluster lease lasts AUTOSCOPE_LEASE_SECONDS (default 15) without renewal and is renewed every third of it:
    // a replica that dies holding it is replaced within about that long.
    leaseMs,
    renewMs: Math.round(leaseMs / 3),
    v8Favor: favor,
  };
}

export interface OperationsConfig {
  /** Port of the Prometheus endpoint, or null when `AUTOSCOPE_METRICS_PORT=off`. */
  metricsPort: number | null;
  metricsHost: string;
}

/**
 * The metrics endpoint's address. It refuses the dashboard's own port (`PORT`): the two are reached by
 * different clients and a NetworkPolicy or a Service tells them apart by port.
 */
export function readOperationsConfig(env: Readonly<Record<string, string | undefined>> = process.env): OperationsConfig {
  const raw = env.AUTOSCOPE_METRICS_PORT?.trim() || '9464';
  const metricsHost = env.AUTOSCOPE_METRICS_HOST?.trim() || '127.0.0.1';
  if (raw === 'off') return { metricsPort: null, metricsHost };
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`AUTOSCOPE_METRICS_PORT must be a port number (1-65535) or "off", not "${raw}"`);
  if (env.PORT && Number(env.PORT) === port) throw new Error(`AUTOSCOPE_METRICS_PORT (${port}) must differ from the dashboard's PORT`);
  return { metricsPort: port, metricsHost };
}
