import 'server-only';
import path from 'node:path';

export interface AutoscopeConfig {
  dataDir: string;
  retentionDays: number;
}

/** Settings from the environment (README's configuration table). */
export function readConfig(env: Readonly<Record<string, string | undefined>> = process.env): AutoscopeConfig {
  const retention = Number(env.AUTOSCOPE_RETENTION_DAYS ?? 30);
  return {
    dataDir: env.AUTOSCOPE_DATA_DIR ? path.resolve(/*turbopackIgnore: true*/ env.AUTOSCOPE_DATA_DIR) : path.join(process.cwd(), '.autoscope'),
    retentionDays: Number.isFinite(retention) && retention > 0 ? retention : 30,
  };
}
