import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator } from './index';

const usage = `npm run sim -- [--scenario demo] [--speed N] [--clusters N --hpas-per-cluster M] [--data-dir DIR] [--admin-port P]

Starts a simulated fleet of Kubernetes API servers on 127.0.0.1 and prints the kubeconfig to use.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'demo' },
      speed: { type: 'string' },
      clusters: { type: 'string' },
      'hpas-per-cluster': { type: 'string' },
      'data-dir': { type: 'string' },
      'admin-port': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.info(usage);
    return;
  }
  const num = (v: string | undefined, name: string): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${v}`);
    return n;
  };
  const clusters = num(values.clusters, 'clusters');
  const hpas = num(values['hpas-per-cluster'], 'hpas-per-cluster');
  if ((clusters === undefined) !== (hpas === undefined)) throw new Error('--clusters and --hpas-per-cluster go together');
  const started = Date.now();
  const world = await startSimulator({
    scenario: values.scenario,
    generate: clusters && hpas ? { clusters, hpasPerCluster: hpas } : undefined,
    speed: num(values.speed, 'speed'),
    dataDir: values['data-dir'],
    adminPort: num(values['admin-port'], 'admin-port'),
    host: values.host,
    log: (line) => console.info(line),
  });
  const clusterCount = world.fleet.clusters.size;
  console.info(
    `[sim] ${world.options.scenario.name}: ${clusterCount} clusters up in ${((Date.now() - started) / 1000).toFixed(1)}s at speed ${world.speed}`,
  );
  console.info(`[sim] admin endpoint: ${world.fleet.adminUrl}`);
  // Tests and tools find the admin endpoint here (loopback only; it holds no credentials).
  writeFileSync(
    path.join(path.dirname(world.fleet.kubeconfigPath), 'admin.json'),
    JSON.stringify({ adminUrl: world.fleet.adminUrl, kubeconfig: world.fleet.kubeconfigPath, pid: process.pid }),
  );
  console.info(`[sim] kubeconfig: ${world.fleet.kubeconfigPath}`);
  console.info(`export KUBECONFIG=${world.fleet.kubeconfigPath}`);
  const stop = (): void => {
    void world.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`[sim] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
