import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConnections } from '@/server/clusters/connections';
import { Autoscope } from '@/server/runtime';
import { startSimulator } from '@/sim/index';
import type { World } from '@/sim/world/world';

/**
 * Lives in test/ because it drives server/ and sim/ together. Readiness is asked at every turn of the event loop from
 * the start, as a probe that never stops would be, and what the index holds the first time it says yes is compared with
 * what it holds once everything has settled: readiness must mean every cluster's first list is in, the Karmada
 * members included, whose watchers are only made once their control plane's Cluster list has been applied.
 */
let world: World;

beforeAll(async () => {
  world = await startSimulator({ scenario: 'demo', speed: 20, dataDir: mkdtempSync(path.join(os.tmpdir(), 'ready-sim-')) });
});

afterAll(async () => {
  await world.stop();
});

function byCluster(app: Autoscope): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { dto } of app.index.entries.values()) counts[dto.cluster] = (counts[dto.cluster] ?? 0) + 1;
  return counts;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('readiness', () => {
  it('says yes only once every cluster’s first list, the Karmada members’ included, is in the index', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ready-data-'));
    const app = new Autoscope({ dataDir, retentionDays: 30 }, loadConnections({ KUBECONFIG: world.fleet.kubeconfigPath }));
    try {
      const started = Date.now();
      let atReady: Record<string, number> | null = null;
      while (atReady === null) {
        if (app.isReady()) atReady = byCluster(app);
        else if (Date.now() - started > 30_000) throw new Error('not ready in 30 s');
        else await turn();
      }
      // The demo fleet adds and removes no autoscaler by itself: what settles is what the first lists held.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const settled = byCluster(app);
      expect(Object.keys(settled)).toEqual(
        expect.arrayContaining(['karmada-global/member-eu', 'karmada-global/member-us', 'ocp-prod-east', 'prod-eu-west-1']),
      );
      expect(atReady).toEqual(settled);
    } finally {
      await app.stop();
    }
  });
});
