import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from './index';
import type { World } from './world/world';

const run = promisify(execFile);
let world: World;
let env: NodeJS.ProcessEnv;

/** kubectl as an independent client (preinstalled here; `.ci/run` installs it where it is missing). */
async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run('kubectl', args, { env, timeout: 30_000 });
  return stdout;
}

function table(output: string): { header: string[]; rows: string[][] } {
  const [head = '', ...lines] = output.trim().split('\n');
  return { header: head.split(/\s{2,}/), rows: lines.map((l) => l.split(/\s{2,}/)) };
}

beforeAll(async () => {
  world = await startSimulator({ scenario: 'demo', dataDir: mkdtempSync(path.join(os.tmpdir(), 'sim-kubectl-')) });
  env = { ...process.env, KUBECONFIG: world.fleet.kubeconfigPath };
});

afterAll(async () => {
  await world.stop();
});

describe('kubectl against the simulated demo fleet', () => {
  it('uses the printed kubeconfig as is: one context per cluster, members behind the Karmada proxy', async () => {
    expect((await kubectl('config', 'get-contexts', '-o', 'name')).trim().split('\n').sort()).toEqual([
      'karmada-global',
      'ocp-prod-east',
      'prod-eu-west-1',
      'prod-us-east-1',
    ]);
    const version = JSON.parse(await kubectl('--context', 'prod-us-east-1', 'version', '-o', 'json')) as {
      serverVersion: { gitVersion: string };
    };
    expect(version.serverVersion.gitVersion).toBe('v1.32.5');
  });

  it('kubectl get hpa -A prints the apiserver columns and real rows', async () => {
    const { header, rows } = table(await kubectl('--context', 'prod-eu-west-1', 'get', 'hpa', '-A'));
    expect(header).toEqual(['NAMESPACE', 'NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    expect(rows).toHaveLength(29);
    const checkout = rows.find((r) => r[0] === 'shop' && r[1] === 'checkout');
    expect(checkout?.[2]).toBe('Deployment/checkout');
    expect(checkout?.[3]).toMatch(/^cpu: \d+%\/70%, \d+m?\/100$/);
    expect(checkout?.slice(4, 6)).toEqual(['2', '6']);
    const gateway = rows.filter((r) => r[2] === 'Deployment/gateway').map((r) => r[1]);
    expect(gateway).toEqual(['gateway', 'gateway-legacy']);
  });

  it('kubectl get machineautoscalers -A prints the CRD printer columns', async () => {
    const { header, rows } = table(await kubectl('--context', 'ocp-prod-east', 'get', 'machineautoscalers', '-A'));
    expect(header).toEqual(['NAMESPACE', 'NAME', 'REF KIND', 'REF NAME', 'MIN', 'MAX', 'AGE']);
    expect(rows.find((r) => r[1] === 'worker-us-east-1a')).toEqual([
      'openshift-machine-api',
      'worker-us-east-1a',
      'MachineSet',
      'ocp-prod-east-worker-us-east-1a',
      '2',
      '8',
      '7d',
    ]);
    expect(rows.find((r) => r[0] === 'default')?.[1]).toBe('worker-autoscaler');
  });

  it('kubectl get machinesets.machine.openshift.io -A prints desired/current/ready/available', async () => {
    const { header, rows } = table(await kubectl('--context', 'ocp-prod-east', 'get', 'machinesets.machine.openshift.io', '-A'));
    expect(header).toEqual(['NAMESPACE', 'NAME', 'DESIRED', 'CURRENT', 'READY', 'AVAILABLE', 'AGE']);
    expect(rows.map((r) => r[1])).toContain('ocp-prod-east-infra-us-east-1a');
    expect(rows.find((r) => r[1] === 'ocp-prod-east-infra-us-east-1a')?.slice(2, 6)).toEqual(['3', '3', '3', '3']);
    const capi = table(
      await kubectl('--context', 'ocp-prod-east', 'get', 'machinesets.v1beta1.cluster.x-k8s.io', '-n', 'openshift-cluster-api'),
    );
    expect(capi.header).toEqual(['NAME', 'CLUSTER', 'DESIRED', 'REPLICAS', 'READY', 'AVAILABLE', 'AGE', 'VERSION']);
  });

  it('kubectl get federatedhpas -A on the Karmada context', async () => {
    const { header, rows } = table(await kubectl('--context', 'karmada-global', 'get', 'federatedhpas', '-A'));
    expect(header).toEqual(['NAMESPACE', 'NAME', 'REFERENCE-KIND', 'REFERENCE-NAME', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    expect(rows.map((r) => `${r[0]}/${r[1]}`).sort()).toEqual(['api/catalog', 'api/orders', 'batch/renderer', 'web/frontend']);
    expect(rows.find((r) => r[1] === 'orders')?.slice(2, 6)).toEqual(['Deployment', 'orders', '2', '24']);
  });

  it('kubectl get --raw through the Karmada member proxy', async () => {
    const list = JSON.parse(
      await kubectl(
        '--context',
        'karmada-global',
        'get',
        '--raw',
        '/apis/cluster.karmada.io/v1alpha1/clusters/member-eu/proxy/apis/autoscaling/v2/namespaces/tools/horizontalpodautoscalers',
      ),
    ) as { kind: string; items: { metadata: { name: string } }[] };
    expect(list.kind).toBe('HorizontalPodAutoscalerList');
    expect(list.items.map((i) => i.metadata.name)).toEqual(['grafana', 'loki-gateway']);
    const deployments = JSON.parse(
      await kubectl(
        '--context',
        'karmada-global',
        'get',
        '--raw',
        '/apis/cluster.karmada.io/v1alpha1/clusters/member-us/proxy/apis/apps/v1/namespaces/api/deployments',
      ),
    ) as { items: { metadata: { name: string } }[] };
    expect(deployments.items.map((i) => i.metadata.name)).toEqual(['catalog', 'orders']);
  });

  it('kubectl get hpa -A --watch receives a change', async () => {
    const child = spawn('kubectl', ['--context', 'prod-eu-west-1', 'get', 'hpa', '-A', '--watch'], { env });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      await expect.poll(() => out.includes('storefront'), { timeout: 15_000 }).toBe(true);
      const cluster = world.fleet.cluster('prod-eu-west-1');
      const hpa = cluster.store.get('autoscaling/horizontalpodautoscalers', 'shop', 'reviews');
      if (!hpa) throw new Error('demo HPA shop/reviews is missing');
      cluster.store.create('autoscaling/horizontalpodautoscalers', {
        ...hpa,
        metadata: { name: 'watch-probe', namespace: 'shop' },
        status: { currentReplicas: 2, desiredReplicas: 2 },
      });
      await expect
        .poll(() => out.split('\n').find((l) => /^shop\s+watch-probe\s+Deployment\/reviews\s/.test(l)), { timeout: 15_000 })
        .toBeTruthy();
    } finally {
      child.kill();
    }
  });
});
