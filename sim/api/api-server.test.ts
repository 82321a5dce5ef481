import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { AppsV1Api, AutoscalingV2Api, CustomObjectsApi, KubeConfig, makeInformer } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { Fleet } from '../fleet/fleet';

const hpaStorage = 'autoscaling/horizontalpodautoscalers';
let fleet: Fleet;
let kc: KubeConfig;
let caPem: string;

function hpa(name: string, namespace: string, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, namespace, labels },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    },
    status: { currentReplicas: 1, desiredReplicas: 1 },
  };
}

async function raw(
  cluster: string,
  urlPath: string,
  init: { accept?: string; token?: string } = {},
): Promise<{ status: number; body: unknown; text: string }> {
  const c = fleet.cluster(cluster);
  const { Agent, fetch } = await import('undici');
  const res = await fetch(`${c.url}${urlPath}`, {
    headers: { authorization: `Bearer ${init.token ?? c.token}`, accept: init.accept ?? 'application/json' },
    dispatcher: new Agent({ connect: { ca: caPem } }),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, body, text };
}

beforeAll(async () => {
  fleet = new Fleet({
    clusters: [
      { name: 'k8s-a', profile: 'kubernetes' },
      { name: 'ocp', profile: 'openshift' },
    ],
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'sim-api-')),
    retainedEvents: 50,
    bookmarkMs: 200,
  });
  await fleet.start();
  caPem = fleet.caCert;
  const store = fleet.cluster('k8s-a').store;
  for (let i = 0; i < 7; i++)
    store.create(hpaStorage, hpa(`web-${i}`, i % 2 ? 'shop' : 'payments', { tier: i < 3 ? 'frontend' : 'backend' }));
  kc = new KubeConfig();
  kc.loadFromFile(fleet.kubeconfigPath);
  kc.setCurrentContext('k8s-a');
});

afterAll(async () => {
  await fleet.stop();
});

describe('discovery', () => {
  it('serves /version, /apis and resource lists with subresources', async () => {
    const version = await raw('k8s-a', '/version');
    expect(version.body).toMatchObject({ major: '1', minor: '33', gitVersion: 'v1.33.2' });
    const groups = (await raw('ocp', '/apis')).body as { groups: { name: string }[] };
    expect(groups.groups.map((g) => g.name)).toEqual(
      expect.arrayContaining(['autoscaling', 'apps', 'autoscaling.openshift.io', 'machine.openshift.io', 'cluster.x-k8s.io']),
    );
    const list = (await raw('k8s-a', '/apis/apps/v1')).body as { resources: { name: string; kind: string; group?: string }[] };
    expect(list.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'deployments', kind: 'Deployment' }),
        expect.objectContaining({ name: 'deployments/scale', kind: 'Scale', group: 'autoscaling' }),
      ]),
    );
    expect((await raw('k8s-a', '/apis/machine.openshift.io/v1beta1')).status).toBe(404);
  });
});

describe('list', () => {
  it('pages with limit/continue over every object once, in namespace/name order', async () => {
    const first = (await raw('k8s-a', `/apis/autoscaling/v2/horizontalpodautoscalers?limit=3`)).body as {
      metadata: { continue?: string; remainingItemCount?: number };
      items: KubeObject[];
    };
    expect(first.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'payments/web-0',
      'payments/web-2',
      'payments/web-4',
    ]);
    expect(first.metadata.remainingItemCount).toBe(4);
    // As served: every item of a page carries the version's kind and apiVersion.
    expect(first.items.map((o) => `${o.apiVersion} ${o.kind}`)).toEqual(Array(3).fill('autoscaling/v2 HorizontalPodAutoscaler'));
    const second = (await raw('k8s-a', `/apis/autoscaling/v2/horizontalpodautoscalers?limit=3&continue=${first.metadata.continue}`))
      .body as { metadata: { continue?: string }; items: KubeObject[] };
    const third = (await raw('k8s-a', `/apis/autoscaling/v2/horizontalpodautoscalers?limit=3&continue=${second.metadata.continue}`))
      .body as { metadata: { continue?: string }; items: KubeObject[] };
    expect([...second.items, ...third.items].map((o) => o.metadata.name)).toEqual(['web-6', 'web-1', 'web-3', 'web-5']);
    expect(third.metadata.continue).toBeUndefined();
  });

  it('converts each object of a page from its storage version (events.k8s.io/v1 over core Events)', async () => {
    const store = fleet.cluster('k8s-a').store;
    for (let i = 0; i < 3; i++)
      store.create('/events', {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `paged-${i}`, namespace: 'paging' },
        involvedObject: { kind: 'HorizontalPodAutoscaler', name: `web-${i}`, namespace: 'paging' },
        reason: 'SuccessfulRescale',
        message: `New size: ${i + 2}`,
        type: 'Normal',
        count: 1,
      });
    const page = (await raw('k8s-a', '/apis/events.k8s.io/v1/namespaces/paging/events?limit=2')).body as {
      metadata: { continue?: string };
      items: (KubeObject & { note?: string; regarding?: { name: string } })[];
    };
    expect(page.items.map((e) => [e.apiVersion, e.note, e.regarding?.name])).toEqual([
      ['events.k8s.io/v1', 'New size: 2', 'web-0'],
      ['events.k8s.io/v1', 'New size: 3', 'web-1'],
    ]);
    const rest = (await raw('k8s-a', `/apis/events.k8s.io/v1/namespaces/paging/events?limit=2&continue=${page.metadata.continue}`))
      .body as { items: (KubeObject & { note?: string })[] };
    expect(rest.items.map((e) => e.note)).toEqual(['New size: 4']);
  });

  it('filters by labelSelector and fieldSelector, and rejects unsupported field labels', async () => {
    const byLabel = (
      await raw('k8s-a', '/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers?labelSelector=tier%20in%20(frontend)')
    ).body as { items: KubeObject[] };
    expect(byLabel.items.map((o) => o.metadata.name)).toEqual(['web-1']);
    const byField = (await raw('k8s-a', '/apis/autoscaling/v2/horizontalpodautoscalers?fieldSelector=metadata.name%3Dweb-5')).body as {
      items: KubeObject[];
    };
    expect(byField.items.map((o) => o.metadata.name)).toEqual(['web-5']);
    const bad = await raw('k8s-a', '/apis/autoscaling/v2/horizontalpodautoscalers?fieldSelector=spec.maxReplicas%3D5');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'field label not supported: spec.maxReplicas' });
  });

  it('answers a Table with the kube-apiserver HPA columns when asked', async () => {
    const table = (
      await raw('k8s-a', '/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers', {
        accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
      })
    ).body as {
      kind: string;
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[]; object: { kind: string } }[];
    };
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
    expect(table.rows[0]?.cells.slice(0, 6)).toEqual(['web-1', 'Deployment/web-1', 'cpu: <unknown>/70%', '1', 5, 1]);
    expect(table.rows[0]?.object.kind).toBe('PartialObjectMetadata');
  });

  it('answers Status objects for errors: 401 without the token, 404 for a missing object, 403 under a fault', async () => {
    expect((await raw('k8s-a', '/apis/autoscaling/v2/horizontalpodautoscalers', { token: 'wrong' })).status).toBe(401);
    const missing = await raw('k8s-a', '/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers/nope');
    expect(missing.body).toMatchObject({
      kind: 'Status',
      code: 404,
      reason: 'NotFound',
      message: 'horizontalpodautoscalers.autoscaling "nope" not found',
    });
    await fleet.setFaults('k8s-a', { forbidden: ['horizontalpodautoscalers.autoscaling'] });
    const forbidden = await raw('k8s-a', '/apis/autoscaling/v2/horizontalpodautoscalers');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({
      reason: 'Forbidden',
      message: expect.stringContaining('cannot list resource "horizontalpodautoscalers" in API group "autoscaling" at the cluster scope'),
    });
    await fleet.clearFaults('k8s-a');
  });
});

describe('@kubernetes/client-node against the simulator', () => {
  it('lists HPAs with the typed client', async () => {
    const api = kc.makeApiClient(AutoscalingV2Api);
    const list = await api.listHorizontalPodAutoscalerForAllNamespaces();
    expect(list.items.map((h) => h.metadata?.name).sort()).toEqual(['web-0', 'web-1', 'web-2', 'web-3', 'web-4', 'web-5', 'web-6']);
    const apps = kc.makeApiClient(AppsV1Api);
    await expect(apps.readNamespacedDeployment({ name: 'absent', namespace: 'shop' })).rejects.toMatchObject({ code: 404 });
  });

  it('delivers add, update and delete to an informer, resumes after a cut watch, and relists after 410', async () => {
    const store = fleet.cluster('k8s-a').store;
    const custom = kc.makeApiClient(CustomObjectsApi);
    const listFn = async (): Promise<{ items: KubernetesObject[]; metadata: { resourceVersion?: string } }> =>
      (await custom.listClusterCustomObject({ group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers' })) as {
        items: KubernetesObject[];
        metadata: { resourceVersion?: string };
      };
    const informer = makeInformer(kc, '/apis/autoscaling/v2/horizontalpodautoscalers', listFn);
    const seen: string[] = [];
    const errors: unknown[] = [];
    let connects = 0;
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => seen.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.push(`delete ${o.metadata?.name}`));
    informer.on('error', (e) => errors.push(e));
    informer.on('connect', () => {
      connects += 1;
    });
    await informer.start();
    await expect.poll(() => informer.list().length).toBe(7);

    store.create(hpaStorage, hpa('api', 'shop'));
    store.mutate(hpaStorage, 'shop', 'web-1', (o) => ({ ...o, status: { currentReplicas: 3, desiredReplicas: 3 } }));
    store.delete(hpaStorage, 'payments', 'web-0');
    await expect.poll(() => seen.slice(7)).toEqual(['add api', 'update web-1', 'delete web-0']);

    // A watch cut cleanly by the server: the informer re-watches from its last resourceVersion, no relist.
    const before = connects;
    fleet.cluster('k8s-a').api.cutWatches(false);
    await expect.poll(() => connects).toBeGreaterThan(before);
    store.mutate(hpaStorage, 'shop', 'web-3', (o) => ({ ...o, status: { currentReplicas: 2, desiredReplicas: 2 } }));
    await expect.poll(() => seen.at(-1)).toBe('update web-3');
    expect(seen.filter((s) => s.startsWith('add'))).toHaveLength(8);

    // Past the retained window (50 events) a resume answers 410 Expired; the informer relists.
    const lists = (): number =>
      fleet.requestLog.filter(
        (e) => e.cluster === 'k8s-a' && e.verb === 'list' && e.path === '/apis/autoscaling/v2/horizontalpodautoscalers',
      ).length;
    const listsBefore = lists();
    fleet.cluster('k8s-a').api.cutWatches(false);
    for (let i = 0; i < 60; i++)
      store.mutate(hpaStorage, 'shop', 'web-5', (o) => ({ ...o, status: { currentReplicas: 1 + (i % 5), desiredReplicas: 1 } }));
    store.create(hpaStorage, hpa('after-gap', 'shop'));
    await expect.poll(() => informer.get('after-gap', 'shop')?.metadata?.name, { timeout: 10_000 }).toBe('after-gap');
    expect(lists()).toBe(listsBefore + 1);
    expect(errors).toEqual([]);
    await informer.stop();
  });

  it('answers an in-stream ERROR 410 for a resourceVersion older than the window', async () => {
    const res = await raw('k8s-a', '/apis/autoscaling/v2/horizontalpodautoscalers?watch=true&resourceVersion=1001&timeoutSeconds=1');
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: { code?: number; reason?: string } });
    expect(lines).toEqual([{ type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) }]);
  });

  it('logs every request with its Kubernetes verb', () => {
    const verbs = new Set(fleet.requestLog.filter((e) => e.cluster === 'k8s-a').map((e) => e.verb));
    expect([...verbs]).toEqual(expect.arrayContaining(['discovery', 'list', 'watch', 'get']));
  });
});

/** A watch stream read as it arrives: its lines so far, and how to end it. */
async function stream(cluster: string, urlPath: string): Promise<{ lines: { type: string; object: KubeObject }[]; close(): void }> {
  const c = fleet.cluster(cluster);
  const { Agent, fetch } = await import('undici');
  const controller = new AbortController();
  const res = await fetch(`${c.url}${urlPath}`, {
    headers: { authorization: `Bearer ${c.token}` },
    dispatcher: new Agent({ connect: { ca: caPem } }),
    signal: controller.signal,
  });
  const lines: { type: string; object: KubeObject }[] = [];
  void (async () => {
    let rest = '';
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        rest += Buffer.from(chunk).toString('utf8');
        const parts = rest.split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts) if (line) lines.push(JSON.parse(line) as { type: string; object: KubeObject });
      }
    } catch {
      // aborted by close()
    }
  })();
  return { lines, close: () => controller.abort() };
}

describe('watch bookmarks and a network partition', () => {
  it('sends a BOOKMARK every bookmarkMs to a watch that allows them, with the current resourceVersion, and none to one that does not', async () => {
    const store = fleet.cluster('k8s-a').store;
    const withBookmarks = await stream(
      'k8s-a',
      `/apis/autoscaling/v2/horizontalpodautoscalers?watch=true&resourceVersion=${store.resourceVersion}&allowWatchBookmarks=true`,
    );
    const without = await stream(
      'k8s-a',
      `/apis/autoscaling/v2/horizontalpodautoscalers?watch=true&resourceVersion=${store.resourceVersion}`,
    );
    await expect.poll(() => withBookmarks.lines.filter((l) => l.type === 'BOOKMARK').length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    const last = withBookmarks.lines.at(-1);
    expect(last).toEqual({
      type: 'BOOKMARK',
      object: { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2', metadata: { resourceVersion: store.resourceVersion } },
    });
    expect(without.lines).toEqual([]);
    withBookmarks.close();
    without.close();
  });

  it('sends a BOOKMARK 2 s before the watch deadline, whatever the interval (kube-apiserver nextBookmarkTime)', async () => {
    const quiet = new Fleet({
      clusters: [{ name: 'quiet', profile: 'kubernetes' }],
      dataDir: mkdtempSync(path.join(os.tmpdir(), 'sim-quiet-')),
    });
    await quiet.start();
    try {
      const c = quiet.cluster('quiet');
      const { Agent, fetch } = await import('undici');
      const started = Date.now();
      const res = await fetch(
        `${c.url}/apis/autoscaling/v2/horizontalpodautoscalers?watch=true&resourceVersion=${c.store.resourceVersion}&allowWatchBookmarks=true&timeoutSeconds=3`,
        {
          headers: { authorization: `Bearer ${c.token}` },
          dispatcher: new Agent({ connect: { ca: quiet.caCert } }),
        },
      );
      const text = await res.text();
      const elapsed = Date.now() - started;
      // The default interval is a minute: the only bookmark of a 3 s watch is the one before its deadline.
      expect(
        text
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { type: string }).type),
      ).toEqual(['BOOKMARK']);
      expect(elapsed).toBeGreaterThanOrEqual(2_900);
    } finally {
      await quiet.stop();
    }
  });

  it('a partition answers nothing and refuses nothing; when it ends, held requests are answered and streams deliver in order', async () => {
    const store = fleet.cluster('k8s-a').store;
    const watch = await stream(
      'k8s-a',
      `/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers?watch=true&resourceVersion=${store.resourceVersion}`,
    );
    await fleet.setFaults('k8s-a', { partitioned: true });
    store.mutate(hpaStorage, 'shop', 'web-1', (o) => ({ ...o, status: { currentReplicas: 4, desiredReplicas: 4 } }));
    store.mutate(hpaStorage, 'shop', 'web-3', (o) => ({ ...o, status: { currentReplicas: 5, desiredReplicas: 5 } }));
    let answered = false;
    const held = raw('k8s-a', '/version').then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    expect(watch.lines).toEqual([]);
    // A watch whose client gives up during the partition is not started for nobody when it ends.
    const { Agent, fetch } = await import('undici');
    const sim = fleet.cluster('k8s-a');
    const gaveUp = fetch(`${sim.url}/apis/autoscaling/v2/horizontalpodautoscalers?watch=true&resourceVersion=${store.resourceVersion}`, {
      headers: { authorization: `Bearer ${sim.token}` },
      dispatcher: new Agent({ connect: { ca: caPem } }),
      signal: AbortSignal.timeout(200),
    }).catch((e: unknown) => e);
    expect(await gaveUp).toMatchObject({ name: 'TimeoutError' });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the server sees the connection close
    const watchersBefore = store.watcherCount;
    await fleet.setFaults('k8s-a', { partitioned: false });
    expect((await held).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(store.watcherCount).toBe(watchersBefore);
    await expect.poll(() => watch.lines.map((l) => `${l.type} ${l.object.metadata.name}`)).toEqual(['MODIFIED web-1', 'MODIFIED web-3']);
    watch.close();
  });
});
