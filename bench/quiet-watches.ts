import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConnections } from '@/server/clusters/connections';
import { ClusterWatcher } from '@/server/watch/cluster-watcher';
import { Fleet } from '@/sim/fleet/fleet';

/**
 * What a quiet fleet costs its API servers: `BENCH_CLUSTERS` simulated clusters (half OpenShift) in which nothing
 * changes, each watched by a `ClusterWatcher` with the product's defaults (bookmarks, the 90 s idle limit, the liveness
 * probe), counted over `BENCH_MINUTES` minutes after the sync: watch requests that ended (each one made again), TLS
 * handshakes, and liveness probes (`GET /version`, logged by the simulator as discovery).
 */
const clusters = Number(process.env.BENCH_CLUSTERS ?? 10);
const minutes = Number(process.env.BENCH_MINUTES ?? 3);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-quiet-'));
  const fleet = new Fleet({
    clusters: Array.from({ length: clusters }, (_, i) => ({ name: `quiet-${i}`, profile: i % 2 ? 'openshift' : 'kubernetes' }) as const),
    dataDir,
  });
  await fleet.start();
  const watchers = loadConnections({ KUBECONFIG: fleet.kubeconfigPath }).connections.map(
    (c) => new ClusterWatcher(c, { onObject: () => undefined, onResourceSynced: () => undefined, onState: () => undefined }),
  );
  try {
    for (const w of watchers) w.start();
    const deadline = Date.now() + 60_000;
    while (watchers.some((w) => w.status().state !== 'synced')) {
      if (Date.now() > deadline) throw new Error('the quiet fleet did not sync in 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    // Each informer opens its watch after its list: let the last ones open before counting.
    await new Promise((r) => setTimeout(r, 5_000));
    const handshakes = (): number => [...fleet.clusters.values()].reduce((n, c) => n + c.handshakes, 0);
    const logged = (verb: string): number => fleet.requestLog.filter((e) => e.verb === verb).length;
    const before = { handshakes: handshakes(), watches: logged('watch'), probes: logged('discovery') };
    const watches = watchers.reduce((n, w) => n + w.informers.size, 0);
    console.info(`${clusters} quiet clusters, ${watches} watches, ${minutes} min after the sync:`);
    await new Promise((r) => setTimeout(r, minutes * 60_000));
    const perClusterMinute = (n: number): string => (n / clusters / minutes).toFixed(1);
    const ended = logged('watch') - before.watches;
    const tls = handshakes() - before.handshakes;
    const probes = logged('discovery') - before.probes;
    console.info(`  watch requests ended and made again  ${String(ended).padStart(6)}  (${perClusterMinute(ended)} a minute per cluster)`);
    console.info(`  TLS handshakes at the API servers     ${String(tls).padStart(6)}  (${perClusterMinute(tls)} a minute per cluster)`);
    console.info(
      `  liveness probes (GET /version)        ${String(probes).padStart(6)}  (${perClusterMinute(probes)} a minute per cluster)`,
    );
    console.info(`  clusters synced at the end            ${watchers.filter((w) => w.status().state === 'synced').length} of ${clusters}`);
  } finally {
    for (const w of watchers) w.stop();
    await fleet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
