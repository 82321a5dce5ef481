import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import fixture from '@/lib/triage/__fixtures__/prod-eu-west-1.hpa.json';
import { FakeCluster, settle } from './__fixtures__/fake-cluster';
import type { InformerError } from './informer';
import { ResourceInformer, restartDelay, slimObject } from './informer';
import { watchedResources } from './resources';

const hpas = watchedResources.find((r) => r.key === 'hpas');
if (!hpas) throw new Error('hpas resource missing');
/** The HPAs as a resource whose informer caches whole objects (every kind but HPAs: MachineSets, Events, …). */
const { keysOnly: _keysOnly, ...hpasWhole } = hpas;
const path = '/apis/autoscaling/v2/horizontalpodautoscalers';
const real = (fixture as { items: HorizontalPodAutoscaler[] }).items;

function harness(cluster = new FakeCluster(), arrived?: (o: KubeObject) => void, resource = hpas as NonNullable<typeof hpas>) {
  const seen = {
    synced: [] as string[][],
    added: [] as string[],
    updated: [] as string[],
    deleted: [] as string[],
    errors: [] as InformerError[],
    answered: 0,
  };
  const name = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;
  const informer = new ResourceInformer(
    cluster.client,
    resource,
    'v2',
    {
      onAdd: (o) => seen.added.push(name(o)),
      onUpdate: (o) => seen.updated.push(name(o)),
      onDelete: (o) => seen.deleted.push(name(o)),
      onSynced: (objects) => seen.synced.push(objects.map(name).sort()),
      onError: (e) => seen.errors.push(e),
      onAnswered: () => (seen.answered += 1),
    },
    { watch: cluster.watch, delay: () => 0, ...(arrived ? { arrived } : {}) },
  );
  return {
    cluster,
    informer,
    seen,
    // Every scenario that reads the cache checks its count too (what the metrics read instead of copying it).
    names: (): string[] => {
      expect(informer.size).toBe(informer.objects().length);
      return informer.objects().map(name).sort();
    },
  };
}

async function started(count = 3) {
  const h = harness();
  for (const o of real.slice(0, count)) h.cluster.put(path, o);
  h.informer.start();
  await settle();
  return h;
}

const all3 = real
  .slice(0, 3)
  .map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
  .sort();

/**
 * An HPA informer on `cluster` whose list pages are handed over where `defer` runs them (through `client`, the cluster's
 * own by default), and what it told: each listed object as `name@resourceVersion`, `synced`, and its errors.
 */
function deferredPages(cluster: FakeCluster, defer: (work: () => void) => void, client = cluster.client, delayMs = 0) {
  const listed: string[] = [];
  const errors: InformerError[] = [];
  const informer = new ResourceInformer(
    client,
    hpas as NonNullable<typeof hpas>,
    'v2',
    {
      onAdd: () => undefined,
      onUpdate: () => undefined,
      onDelete: () => undefined,
      onSynced: () => listed.push('synced'),
      onError: (e) => errors.push(e),
      onListed: (objects) => listed.push(...objects.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`)),
    },
    { watch: cluster.watch, delay: () => delayMs, defer },
  );
  return { informer, listed, errors };
}

describe('ResourceInformer', () => {
  it('announces a sync with the listed objects, once the cache holds them', async () => {
    const h = await started();
    expect(h.seen.synced).toEqual([all3]);
    expect(h.names()).toEqual(all3);
    expect(h.informer.synced).toBe(true);
    expect(h.cluster.requests).toEqual([`list ${path}`, `watch ${path} rv=103`]);
    h.informer.stop();
  });

  it('hands each page of a list over as it arrives, before the sync, and not again as ListWatch applies the list', async () => {
    const cluster = new FakeCluster();
    cluster.pageSize = 2;
    const order: string[] = [];
    const pages: KubeObject[][] = [];
    const announced: KubeObject[] = [];
    const informer = new ResourceInformer(
      cluster.client,
      hpas,
      'v2',
      {
        onAdd: (o) => {
          announced.push(o);
          order.push('add');
        },
        onUpdate: (o) => {
          announced.push(o);
          order.push('update');
        },
        onDelete: () => order.push('delete'),
        onSynced: () => order.push('synced'),
        onError: () => order.push('error'),
        onListed: (objects) => {
          pages.push(objects);
          order.push(`page of ${objects.length}`);
        },
      },
      { watch: cluster.watch, delay: () => 0 },
    );
    for (const o of real.slice(0, 5)) cluster.put(path, o);
    informer.start();
    await settle();
    expect(cluster.requests.filter((r) => r.startsWith('list'))).toHaveLength(3);
    // Each object once, in its page: the keys ListWatch caches carry nothing past their page, so the parsed objects
    // die once the handlers are done with them, not when the whole list is in.
    expect(order).toEqual(['page of 2', 'page of 2', 'page of 1', 'synced']);
    expect(announced).toEqual([]);
    expect(pages.flat().map((o) => o.metadata.name)).toEqual(real.slice(0, 5).map((o) => o.metadata.name));
    expect(informer.size).toBe(5);
    expect(informer.objects().map((o) => o.metadata.name)).toEqual(real.slice(0, 5).map((o) => o.metadata.name));
    // A watch event after the list is announced as it comes, whole.
    const changed = { ...real[0], status: { ...real[0]?.status, desiredReplicas: 9 } } as HorizontalPodAutoscaler;
    cluster.put(path, changed);
    await settle();
    expect(order.slice(4)).toEqual(['update']);
    expect(announced.map((o) => (o as HorizontalPodAutoscaler).status?.desiredReplicas)).toEqual([9]);
    informer.stop();
  });

  it('with a defer, parses each list page where it runs (childrenFirst), and asks for the next page only after', async () => {
    const cluster = new FakeCluster();
    cluster.pageSize = 2;
    const held: { work: () => void; childrenFirst: boolean | undefined }[] = [];
    const pages: string[][] = [];
    const informer = new ResourceInformer(
      cluster.client,
      hpas,
      'v2',
      {
        onAdd: () => undefined,
        onUpdate: () => undefined,
        onDelete: () => undefined,
        onSynced: () => pages.push(['synced']),
        onError: () => undefined,
        onListed: (objects) => pages.push(objects.map((o) => o.metadata.name)),
      },
      { watch: cluster.watch, delay: () => 0, defer: (work, childrenFirst) => held.push({ work, childrenFirst }) },
    );
    for (const o of real.slice(0, 3)) cluster.put(path, o);
    informer.start();
    await settle();
    const lists = (): number => cluster.requests.filter((r) => r.startsWith('list')).length;
    // The first page is in, unparsed, and nothing asked for the second yet.
    expect(lists()).toBe(1);
    expect(pages).toEqual([]);
    expect(held.map((h) => h.childrenFirst)).toEqual([true]);
    held.shift()?.work();
    expect(pages).toEqual([real.slice(0, 2).map((o) => o.metadata.name)]);
    await settle();
    expect(lists()).toBe(2);
    held.shift()?.work();
    await settle();
    expect(pages.slice(1)).toEqual([[real[2]?.metadata.name], ['synced']]);
    expect(informer.size).toBe(3);
    informer.stop();
  });

  it('stopped while a list page waits where defer holds it: the page is dropped, and no error is reported', async () => {
    const cluster = new FakeCluster();
    const held: (() => void)[] = [];
    const { informer, listed, errors } = deferredPages(cluster, (work) => held.push(work));
    for (const o of real.slice(0, 2)) cluster.put(path, o);
    informer.start();
    await settle();
    expect(held).toHaveLength(1);
    informer.stop();
    held.shift()?.();
    await settle();
    expect(listed).toEqual([]);
    expect(errors).toEqual([]);
    expect(cluster.requests.filter((r) => r.startsWith('watch'))).toEqual([]);
  });

  it('stopped while a list page is on its way: the page is not handed over, nor is a watch made', async () => {
    const cluster = new FakeCluster();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The API server holds its answer until the test lets it go.
    const client = {
      ...cluster.client,
      getText: async (p: string, options?: { query?: Record<string, string | number | undefined> }): Promise<string> => {
        await gate;
        return cluster.client.getText(p, options);
      },
    } as unknown as typeof cluster.client;
    const { informer, listed, errors } = deferredPages(cluster, (work) => work(), client);
    for (const o of real.slice(0, 2)) cluster.put(path, o);
    informer.start();
    await settle();
    informer.stop();
    release();
    await settle();
    expect(listed).toEqual([]);
    expect(errors).toEqual([]);
    expect(cluster.requests.filter((r) => r.startsWith('watch'))).toEqual([]);
  });

  it('stopped and started again while a list page waits: the old page is dropped, the new list is handed over', async () => {
    const cluster = new FakeCluster();
    const held: (() => void)[] = [];
    const { informer, listed, errors } = deferredPages(cluster, (work) => held.push(work));
    const [first] = real;
    if (!first) throw new Error('fixture empty');
    cluster.put(path, first);
    informer.start();
    await settle();
    informer.stop();
    // A newer version, listed by the new start.
    cluster.put(path, { ...first, status: { ...first.status, desiredReplicas: 9 } });
    informer.start();
    await settle();
    expect(held).toHaveLength(2);
    for (const work of held.splice(0)) work();
    await settle();
    expect(listed).toEqual([`${first.metadata.name}@102`, 'synced']);
    expect(errors).toEqual([]);
    expect(informer.synced).toBe(true);
    informer.stop();
  });

  it('a list page that is not JSON fails the list, as an error during it', async () => {
    const cluster = new FakeCluster();
    const client = { ...cluster.client, getText: () => Promise.resolve('{"items": [') } as unknown as typeof cluster.client;
    const { informer, errors } = deferredPages(cluster, (work) => work(), client, 60_000);
    informer.start();
    await settle();
    expect(errors[0]).toMatchObject({ duringList: true, statusCode: 0 });
    expect(informer.synced).toBe(false);
    informer.stop();
  });

  it('hands each object to `arrived` as it comes (list items, watch events), without managedFields or last-applied', async () => {
    const order: string[] = [];
    const arrivedObjects: KubeObject[] = [];
    const h = harness(
      new FakeCluster(),
      (o) => {
        arrivedObjects.push(o);
        order.push(`arrived ${o.metadata.name} rv=${o.metadata.resourceVersion}`);
      },
      hpasWhole,
    );
    const withFields = (o: HorizontalPodAutoscaler): KubeObject => ({
      ...o,
      metadata: {
        ...o.metadata,
        managedFields: [{ manager: 'kube-controller-manager' }],
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(o), 'team.example.com/owner': 'payments' },
      },
    });
    for (const o of real.slice(0, 2)) h.cluster.put(path, withFields(o));
    h.informer.start();
    await settle();
    expect(order.map((l) => l.split(' ')[1])).toEqual(real.slice(0, 2).map((o) => o.metadata.name));
    const changed = withFields({ ...real[0], status: { ...real[0]?.status, desiredReplicas: 9 } } as HorizontalPodAutoscaler);
    h.cluster.put(path, changed);
    await settle();
    expect(order).toHaveLength(3);
    expect(order[2]).toMatch(new RegExp(`^arrived ${real[0]?.metadata.name} `));
    // The very objects the informer caches and reports, slimmed before anyone saw them.
    expect(arrivedObjects.every((o) => o.metadata.managedFields === undefined)).toBe(true);
    // kubectl's copy of the last apply goes; every other annotation stays.
    expect(arrivedObjects.map((o) => o.metadata.annotations)).toEqual(arrivedObjects.map(() => ({ 'team.example.com/owner': 'payments' })));
    const cached = new Set(h.informer.objects());
    expect(arrivedObjects.filter((o) => cached.has(o))).toHaveLength(2);
    h.informer.stop();
  });

  it('keys only (HPAs): the cache holds each key and resourceVersion, the handlers get the whole objects', async () => {
    const cluster = new FakeCluster();
    const arrivedKeys: KubeObject[] = [];
    const reported: { change: string; object: KubeObject }[] = [];
    const informer = new ResourceInformer(
      cluster.client,
      hpas,
      'v2',
      {
        onAdd: (object) => reported.push({ change: 'add', object }),
        onUpdate: (object) => reported.push({ change: 'update', object }),
        onDelete: (object) => reported.push({ change: 'delete', object }),
        onSynced: () => undefined,
        onError: () => undefined,
      },
      { watch: cluster.watch, delay: () => 0, arrived: (o) => arrivedKeys.push(o) },
    );
    const [a, b, c] = real;
    if (!a || !b || !c) throw new Error('fixture too small');
    for (const o of [a, b, c]) cluster.put(path, { ...o, metadata: { ...o.metadata, managedFields: [{ manager: 'x' }] } });
    informer.start();
    await settle();
    const whole = (o: KubeObject) => ({ name: o.metadata.name, spec: o.spec !== undefined, status: o.status !== undefined });
    // Listed: each reported whole (spec and status), slimmed; the cache holds keys.
    expect(reported.map((r) => r.change)).toEqual(['add', 'add', 'add']);
    expect(reported.map((r) => whole(r.object))).toEqual([a, b, c].map((o) => ({ name: o.metadata.name, spec: true, status: true })));
    expect(reported.every((r) => r.object.metadata.managedFields === undefined)).toBe(true);
    // A key: its metadata's name, namespace and resourceVersion (the key is its own metadata; the resourceVersion kept
    // as a number when it is one), and nothing of the object once handed over (not even a field that held it).
    const keyOf = (o: KubeObject) => `${Object.keys(o).join()} ${/"(spec|status|labels|uid)"/.test(JSON.stringify(o))}`;
    expect(informer.objects().map(keyOf)).toEqual(Array(3).fill('name,namespace,version false'));
    expect(informer.objects().map((o) => [o.metadata.resourceVersion, JSON.parse(JSON.stringify(o)) as unknown])).toEqual(
      reported.map(
        ({
          object: {
            metadata: { name, namespace, resourceVersion },
          },
        }) => [resourceVersion, { name, namespace, resourceVersion }],
      ),
    );
    // `arrived` is given each whole object, slimmed, as it comes (its strings are shared there); the cache keeps its key.
    expect(arrivedKeys.map((o) => whole(o))).toEqual(reported.map((r) => whole(r.object)));
    expect(arrivedKeys.every((o) => o.metadata.managedFields === undefined)).toBe(true);
    // A watch event: reported whole; the cache's key moves to its resourceVersion.
    cluster.put(path, { ...a, status: { ...a.status, desiredReplicas: 42 } });
    await settle();
    const update = reported[3];
    expect(update?.change).toBe('update');
    expect((update?.object.status as { desiredReplicas?: number }).desiredReplicas).toBe(42);
    const keyA = informer.objects().find((o) => o.metadata.name === a.metadata.name);
    expect(keyA?.metadata.resourceVersion).toBe(update?.object.metadata.resourceVersion);
    expect(keyA?.status).toBeUndefined();
    // A watched deletion is reported whole; one a relist finds (410 Gone) can only be reported by its key.
    cluster.remove(path, b.metadata.namespace ?? '', b.metadata.name);
    await settle();
    expect(reported[4]?.change).toBe('delete');
    expect(whole(reported[4]?.object as KubeObject)).toEqual({ name: b.metadata.name, spec: true, status: true });
    cluster.cut();
    cluster.remove(path, c.metadata.namespace ?? '', c.metadata.name);
    cluster.compact(path);
    await settle();
    expect(cluster.requests.filter((r) => r.startsWith('list'))).toHaveLength(2);
    const relistDelete = reported.find((r, i) => i > 4 && r.change === 'delete');
    expect(relistDelete && keyOf(relistDelete.object)).toBe('name,namespace,version false');
    expect(relistDelete?.object.metadata.resourceVersion).toBe(reported[2]?.object.metadata.resourceVersion);
    expect(relistDelete?.object.metadata.name).toBe(c.metadata.name);
    expect(informer.objects().map((o) => o.metadata.name)).toEqual([a.metadata.name]);
    informer.stop();
  });

  it('a watch that defers its lines: what it still holds when the informer stops is dropped, not delivered', async () => {
    const cluster = new FakeCluster();
    const held: (() => void)[] = [];
    // The fake cluster's watch, with every event and end handed over later, as LineWatch hands them to the ingest queue.
    const deferring: typeof cluster.watch = {
      watch: (p, q, callback, done) =>
        cluster.watch.watch(
          p,
          q,
          (phase, object, raw) => held.push(() => callback(phase, object, raw)),
          (err) => held.push(() => done(err)),
        ),
    };
    const updated: string[] = [];
    const informer = new ResourceInformer(
      cluster.client,
      hpas,
      'v2',
      {
        onAdd: () => undefined,
        onUpdate: (o) => updated.push(String(o.metadata.resourceVersion)),
        onDelete: () => undefined,
        onSynced: () => undefined,
        onError: () => undefined,
      },
      { watch: deferring, delay: () => 0 },
    );
    for (const o of real.slice(0, 2)) cluster.put(path, o);
    informer.start();
    await settle();
    const change = (replicas: number): KubeObject =>
      ({ ...real[0], status: { ...real[0]?.status, desiredReplicas: replicas } }) as unknown as KubeObject;
    cluster.put(path, change(7));
    await settle();
    // Delivered when the queue runs it.
    expect(updated).toEqual([]);
    for (const work of held.splice(0)) work();
    expect(updated).toHaveLength(1);
    cluster.put(path, change(8));
    await settle();
    expect(held.length).toBeGreaterThan(0);
    informer.stop();
    for (const work of held.splice(0)) work();
    expect(updated).toHaveLength(1);
  });

  it('a watch cut: resumes the watch from its resourceVersion, replays what it missed, never relists or deletes', async () => {
    const h = await started();
    h.cluster.cut();
    const changed = { ...real[0], status: { ...real[0]?.status, desiredReplicas: 9 } } as unknown as KubeObject;
    h.cluster.put(path, changed);
    await settle();
    expect(h.cluster.requests.filter((r) => r.startsWith('list'))).toHaveLength(1);
    expect(h.cluster.requests.at(-1)).toBe(`watch ${path} rv=103`);
    expect(h.seen.deleted).toEqual([]);
    expect(h.seen.updated).toEqual([`${real[0]?.metadata.namespace}/${real[0]?.metadata.name}`]);
    expect(h.names()).toEqual(all3);
    expect(h.seen.errors.map((e) => [e.duringList, e.cut])).toEqual([[false, true]]);
    expect(h.informer.synced).toBe(true);
    h.informer.stop();
  });

  it('a 5xx on the watch: the same, and the error is not a list failure', async () => {
    const h = await started();
    h.cluster.watchFailures = [500];
    h.cluster.cut();
    await settle();
    expect(h.seen.errors.map((e) => [e.statusCode, e.duringList, e.cut])).toEqual([
      [0, false, true],
      [500, false, false],
    ]);
    expect(h.cluster.requests.filter((r) => r.startsWith('list'))).toHaveLength(1);
    expect(h.seen.deleted).toEqual([]);
    expect(h.names()).toEqual(all3);
    h.informer.stop();
  });

  it('410 Gone: relists, and an object the relist no longer has is deleted (a real deletion), the others are not', async () => {
    const h = await started();
    const gone = real[1];
    h.cluster.cut();
    h.cluster.remove(path, gone?.metadata.namespace ?? '', gone?.metadata.name ?? '');
    h.cluster.compact(path);
    await settle();
    const left = all3.filter((n) => n !== `${gone?.metadata.namespace}/${gone?.metadata.name}`);
    expect(h.cluster.requests.filter((r) => r.startsWith('list'))).toHaveLength(2);
    expect(h.seen.deleted).toEqual([`${gone?.metadata.namespace}/${gone?.metadata.name}`]);
    expect(h.seen.synced).toEqual([all3, left]);
    expect(h.names()).toEqual(left);
    h.informer.stop();
  });

  it('a 5xx on the relist: the cache keeps serving, the retry syncs every object again, nothing is deleted', async () => {
    const h = await started();
    h.cluster.cut();
    h.cluster.put(path, { ...real[2], status: { ...real[2]?.status, desiredReplicas: 7 } } as unknown as KubeObject);
    h.cluster.compact(path);
    h.cluster.listFailures = [503];
    await settle();
    expect(h.seen.errors.map((e) => [e.statusCode, e.duringList])).toEqual([
      [0, false],
      [503, true],
    ]);
    expect(h.seen.deleted).toEqual([]);
    expect(h.seen.synced).toEqual([all3, all3]);
    expect(h.names()).toEqual(all3);
    h.informer.stop();
  });

  it('a cluster down, then back: the cache serves meanwhile, and the sync after the outage carries every object', async () => {
    const h = harness();
    for (const o of real.slice(0, 3)) h.cluster.put(path, o);
    h.informer.start();
    await settle();
    h.cluster.down = true;
    h.cluster.cut();
    h.cluster.put(path, { ...real[2], status: { ...real[2]?.status, desiredReplicas: 7 } } as unknown as KubeObject);
    h.cluster.compact(path);
    await settle(5);
    expect(h.names()).toEqual(all3);
    expect(h.seen.errors.slice(1).every((e) => e.refused)).toBe(true);
    h.cluster.down = false;
    await settle();
    expect(h.seen.synced.at(-1)).toEqual(all3);
    expect(h.seen.synced.every((s) => s.length === 3)).toBe(true);
    expect(h.seen.deleted).toEqual([]);
    h.informer.stop();
  });
});

const hpaEvents = watchedResources.find((r) => r.key === 'hpaEvents');
if (!hpaEvents) throw new Error('hpaEvents resource missing');
const eventsPath = '/api/v1/events';

/** An HPA's Event as kube-controller-manager writes one. */
function hpaEvent(n: number, reason = 'SuccessfulRescale'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `web-${n}.17f0c2a1b3d4e5f${n}`, namespace: 'shop', managedFields: [{ manager: 'kube-controller-manager' }] },
    involvedObject: { kind: 'HorizontalPodAutoscaler', namespace: 'shop', name: `web-${n}` },
    reason,
    message: `New size: ${n}; reason: cpu resource utilization (percentage of request) above target`,
    type: 'Normal',
    count: 1,
  };
}

/** An informer of HPA Events (`uncached`), recording what it hands on, as `change name@resourceVersion`. */
function eventsHarness(cluster = new FakeCluster(), client = cluster.client) {
  const handed: string[] = [];
  const synced: number[] = [];
  const errors: InformerError[] = [];
  const arrived: KubeObject[] = [];
  const tag = (change: string) => (o: KubeObject) => handed.push(`${change} ${o.metadata.name}@${o.metadata.resourceVersion}`);
  const informer = new ResourceInformer(
    client,
    hpaEvents as NonNullable<typeof hpaEvents>,
    'v1',
    {
      onAdd: tag('add'),
      onUpdate: tag('update'),
      onDelete: tag('delete'),
      onSynced: (objects) => synced.push(objects.length),
      onError: (e) => errors.push(e),
    },
    { watch: cluster.watch, delay: () => 0, arrived: (o) => arrived.push(o) },
  );
  return { cluster, informer, handed, synced, errors, arrived };
}

/** An events informer started on a cluster holding Events 1..count, its list and first watch made. */
async function eventsStarted(count: number) {
  const h = eventsHarness();
  for (let n = 1; n <= count; n++) h.cluster.put(eventsPath, hpaEvent(n));
  h.informer.start();
  await settle();
  return h;
}

describe('ResourceInformer of an uncached resource (HPA and FederatedHPA Events)', () => {
  it('is how HPA and FederatedHPA Events are watched; machine Events keep whole objects', () => {
    expect(watchedResources.filter((r) => r.uncached).map((r) => r.key)).toEqual(['hpaEvents', 'federatedHpaEvents']);
    expect(watchedResources.filter((r) => r.uncached && (r.keysOnly || r.pageByPage))).toEqual([]);
  });

  it('hands each page on as it arrives, before the next is asked for, keeps nothing, and counts what the cluster holds', async () => {
    const h = eventsHarness();
    h.cluster.pageSize = 2;
    const listsAsked: number[] = [];
    h.informer = new ResourceInformer(
      h.cluster.client,
      hpaEvents,
      'v1',
      {
        onAdd: (o) => {
          h.handed.push(`add ${o.metadata.name}`);
          listsAsked.push(h.cluster.requests.filter((r) => r.startsWith('list')).length);
        },
        onUpdate: () => undefined,
        onDelete: () => undefined,
        onSynced: (objects) => h.synced.push(objects.length),
        onError: () => undefined,
      },
      { watch: h.cluster.watch, delay: () => 0, arrived: (o) => h.arrived.push(o) },
    );
    for (let n = 0; n < 5; n++) h.cluster.put(eventsPath, hpaEvent(n));
    h.informer.start();
    await settle();
    expect(h.handed).toEqual([0, 1, 2, 3, 4].map((n) => `add web-${n}.17f0c2a1b3d4e5f${n}`));
    // The first page's objects went before the second page was asked for: they die young.
    expect(listsAsked).toEqual([1, 1, 2, 2, 3]);
    expect(h.synced).toEqual([0]);
    expect(h.informer.objects()).toEqual([]);
    expect(h.informer.size).toBe(5);
    expect(h.cluster.requests.at(-1)).toBe(`watch ${eventsPath} rv=105`);
    // `arrived` had each, slimmed, before it was handed on.
    expect(h.arrived.map((o) => [o.metadata.name, o.metadata.managedFields])).toEqual(
      [0, 1, 2, 3, 4].map((n) => [`web-${n}.17f0c2a1b3d4e5f${n}`, undefined]),
    );
    h.informer.stop();
  });

  it('the watch: ADDED an add, MODIFIED an update, DELETED a delete, each whole and counted', async () => {
    const h = await eventsStarted(1);
    h.cluster.put(eventsPath, hpaEvent(2));
    h.cluster.put(eventsPath, { ...hpaEvent(1), count: 2 });
    await settle();
    expect(h.informer.size).toBe(2);
    h.cluster.remove(eventsPath, 'shop', 'web-1.17f0c2a1b3d4e5f1');
    await settle();
    expect(h.handed).toEqual([
      'add web-1.17f0c2a1b3d4e5f1@101',
      'add web-2.17f0c2a1b3d4e5f2@102',
      'update web-1.17f0c2a1b3d4e5f1@103',
      'delete web-1.17f0c2a1b3d4e5f1@104',
    ]);
    expect(h.informer.size).toBe(1);
    expect(h.arrived.map((o) => (o as { count?: number }).count)).toEqual([1, 1, 2, 2]);
    h.informer.stop();
  });

  it('a watch cut or a 5xx: resumes from its resourceVersion and replays what it missed, never relists', async () => {
    const h = await eventsStarted(1);
    h.cluster.cut();
    h.cluster.put(eventsPath, hpaEvent(2));
    await settle();
    h.cluster.watchFailures = [500];
    h.cluster.cut();
    h.cluster.put(eventsPath, hpaEvent(3));
    await settle();
    expect(h.cluster.requests.filter((r) => r.startsWith('list'))).toHaveLength(1);
    expect(h.cluster.requests.filter((r) => r.startsWith('watch'))).toEqual([
      `watch ${eventsPath} rv=101`,
      `watch ${eventsPath} rv=101`,
      `watch ${eventsPath} rv=102`,
      `watch ${eventsPath} rv=102`,
    ]);
    expect(h.handed).toEqual(['add web-1.17f0c2a1b3d4e5f1@101', 'add web-2.17f0c2a1b3d4e5f2@102', 'add web-3.17f0c2a1b3d4e5f3@103']);
    expect(h.errors.map((e) => [e.statusCode, e.duringList, e.cut])).toEqual([
      [0, false, true],
      [0, false, true],
      [500, false, false],
    ]);
    expect(h.informer.synced).toBe(true);
    expect(h.informer.size).toBe(3);
    h.informer.stop();
  });

  it('410 Gone: relists and hands every listed object on again (filed twice is filed once); no delete, the count is the list', async () => {
    const h = await eventsStarted(3);
    h.cluster.cut();
    h.cluster.remove(eventsPath, 'shop', 'web-2.17f0c2a1b3d4e5f2');
    h.cluster.put(eventsPath, { ...hpaEvent(3), count: 2 });
    h.cluster.compact(eventsPath);
    await settle();
    expect(h.cluster.requests.filter((r) => r.startsWith('list'))).toHaveLength(2);
    expect(h.handed.slice(3)).toEqual(['add web-1.17f0c2a1b3d4e5f1@101', 'add web-3.17f0c2a1b3d4e5f3@105']);
    expect(h.handed.filter((x) => x.startsWith('delete'))).toEqual([]);
    expect(h.synced).toEqual([0, 0]);
    expect(h.informer.size).toBe(2);
    h.informer.stop();
  });

  it('a 5xx on the relist: reported as a list failure, and the retry lists and watches again', async () => {
    const h = await eventsStarted(1);
    h.cluster.cut();
    h.cluster.put(eventsPath, hpaEvent(2));
    h.cluster.compact(eventsPath);
    h.cluster.listFailures = [503];
    await settle();
    expect(h.errors.map((e) => [e.statusCode, e.duringList])).toEqual([
      [0, false],
      [503, true],
    ]);
    expect(h.cluster.requests.filter((r) => r.startsWith('list'))).toHaveLength(3);
    expect(h.synced).toEqual([0, 0]);
    expect(h.informer.synced).toBe(true);
    expect(h.informer.size).toBe(2);
    expect(h.handed).toEqual(['add web-1.17f0c2a1b3d4e5f1@101', 'add web-1.17f0c2a1b3d4e5f1@101', 'add web-2.17f0c2a1b3d4e5f2@102']);
    h.informer.stop();
  });

  it('stopped while its list is under way: the pages that come after the stop are not handed on, nor is a watch made', async () => {
    const cluster = new FakeCluster();
    cluster.pageSize = 1;
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    // The API server holds the second page until the test lets it go.
    const client = {
      ...cluster.client,
      getText: async (p: string, options?: { query?: Record<string, string | number | undefined> }): Promise<string> => {
        if (options?.query?.continue !== undefined) await gate;
        return cluster.client.getText(p, options);
      },
    } as unknown as typeof cluster.client;
    const h = eventsHarness(cluster, client);
    for (let n = 1; n <= 2; n++) cluster.put(eventsPath, hpaEvent(n));
    gate = new Promise((resolve) => (release = resolve));
    h.informer.start();
    await settle();
    expect(h.handed).toEqual(['add web-1.17f0c2a1b3d4e5f1@101']);
    h.informer.stop();
    release();
    await settle();
    expect(h.handed).toEqual(['add web-1.17f0c2a1b3d4e5f1@101']);
    expect(cluster.requests.filter((r) => r.startsWith('watch'))).toEqual([]);
    expect(h.synced).toEqual([]);
  });

  it('a watch request that cannot be made (its credentials, say) is a watch failure: reported, then resumed', async () => {
    const cluster = new FakeCluster();
    // The second watch request fails before it is made: the one after a clean close, made from the loop itself.
    let calls = 0;
    const refusing: typeof cluster.watch = {
      watch: (p, q, callback, done) =>
        ++calls === 2 ? Promise.reject(new Error('exec plugin failed: token expired')) : cluster.watch.watch(p, q, callback, done),
    };
    const handed: string[] = [];
    const errors: InformerError[] = [];
    const informer = new ResourceInformer(
      cluster.client,
      hpaEvents,
      'v1',
      {
        onAdd: (o) => handed.push(String(o.metadata.name)),
        onUpdate: () => undefined,
        onDelete: () => undefined,
        onSynced: () => undefined,
        onError: (e) => errors.push(e),
      },
      { watch: refusing, delay: () => 0 },
    );
    cluster.put(eventsPath, hpaEvent(1));
    informer.start();
    await settle();
    cluster.cut(eventsPath, false);
    cluster.put(eventsPath, hpaEvent(2));
    await settle();
    expect(errors.map((e) => [e.duringList, e.message])).toEqual([[false, 'watch failed: exec plugin failed: token expired']]);
    // Resumed from the list's resourceVersion, not listed again, and what happened meanwhile replayed.
    expect(cluster.requests).toEqual([`list ${eventsPath}`, `watch ${eventsPath} rv=101`, `watch ${eventsPath} rv=101`]);
    expect(handed).toEqual(['web-1.17f0c2a1b3d4e5f1', 'web-2.17f0c2a1b3d4e5f2']);
    informer.stop();
  });

  it('hands on every version a cached informer of the same objects does, through cuts, 5xx, 410s and failed relists', async () => {
    type Op = { op: 'put' | 'remove' | 'gone' | 'relist503'; n: number } | { op: 'cut' } | { op: 'watch500' };
    const n = fc.integer({ min: 0, max: 5 });
    const ops = fc.oneof(
      fc.record({ op: fc.constant('put' as const), n }),
      fc.record({ op: fc.constant('remove' as const), n }),
      fc.constant({ op: 'cut' as const }),
      fc.record({ op: fc.constant('gone' as const), n }),
      fc.constant({ op: 'watch500' as const }),
      fc.record({ op: fc.constant('relist503' as const), n }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(ops, { maxLength: 14 }), fc.integer({ min: 0, max: 3 }), async (script: Op[], initial) => {
        const cluster = new FakeCluster();
        cluster.pageSize = 2;
        const streamed = eventsHarness(cluster);
        // The same Events through client-node's ListWatch with whole objects in its cache (as machine Events are kept).
        const { uncached: _uncached, ...cachedResource } = hpaEvents;
        const cachedVersions = new Set<string>();
        const cachedDeletes: string[] = [];
        const cachedInformer = new ResourceInformer(
          cluster.client,
          cachedResource,
          'v1',
          {
            onAdd: (o) => cachedVersions.add(`${o.metadata.name}@${o.metadata.resourceVersion}`),
            onUpdate: (o) => cachedVersions.add(`${o.metadata.name}@${o.metadata.resourceVersion}`),
            onDelete: (o) => cachedDeletes.push(String(o.metadata.name)),
            onSynced: () => undefined,
            onError: () => undefined,
          },
          { watch: cluster.watch, delay: () => 0 },
        );
        for (let n = 0; n < initial; n++) cluster.put(eventsPath, hpaEvent(n));
        streamed.informer.start();
        cachedInformer.start();
        await settle();
        for (const step of script) {
          if (step.op === 'put') cluster.put(eventsPath, { ...hpaEvent(step.n), count: cluster.requests.length });
          else if (step.op === 'remove') cluster.remove(eventsPath, 'shop', `web-${step.n}.17f0c2a1b3d4e5f${step.n}`);
          else if (step.op === 'cut') cluster.cut();
          else if (step.op === 'gone') {
            // A change while the watch is down, then its log compacted: the resumed watch gets 410 Gone.
            cluster.cut();
            cluster.put(eventsPath, { ...hpaEvent(step.n), count: cluster.requests.length });
            cluster.compact(eventsPath);
          } else if (step.op === 'watch500') {
            cluster.watchFailures.push(500);
            cluster.cut();
          } else {
            cluster.listFailures.push(503);
            cluster.cut();
            cluster.remove(eventsPath, 'shop', `web-${step.n}.17f0c2a1b3d4e5f${step.n}`);
            cluster.compact(eventsPath);
          }
          await settle(40);
        }
        const versions = new Set(streamed.handed.filter((x) => !x.startsWith('delete')).map((x) => x.split(' ')[1]));
        expect([...versions].sort()).toEqual([...cachedVersions].sort());
        // What it reports gone, the watch said was deleted; the cached informer saw each of those go too.
        const deleted = streamed.handed.filter((x) => x.startsWith('delete')).map((x) => x.split(' ')[1]?.split('@')[0]);
        expect(deleted.every((name) => cachedDeletes.includes(String(name)))).toBe(true);
        expect(streamed.informer.size).toBe(cachedInformer.size);
        expect(streamed.informer.synced && cachedInformer.synced).toBe(true);
        streamed.informer.stop();
        cachedInformer.stop();
      }),
      { numRuns: 25 },
    );
  });
});

describe('slimObject', () => {
  const K = 'kubectl.kubernetes.io/last-applied-configuration';
  const object = (metadata: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'X',
    metadata: { name: 'a', namespace: 'n', ...metadata },
  });

  it('drops managedFields and the last-applied annotation, keeps every other field in its place', () => {
    const o = object({ uid: 'u', labels: { app: 'x' }, annotations: { a: '1', [K]: '{}', z: '2' }, managedFields: [{}] });
    expect(slimObject(o)).toBe(o);
    expect(Object.keys(o.metadata)).toEqual(['name', 'namespace', 'uid', 'labels', 'annotations']);
    expect(o.metadata.annotations).toEqual({ a: '1', z: '2' });
    expect(Object.keys(o.metadata.annotations ?? {})).toEqual(['a', 'z']);
    expect(o.metadata.labels).toEqual({ app: 'x' });
  });

  it('annotations without last-applied are the same object; with only last-applied, empty', () => {
    const only = object({ annotations: { [K]: '{}' } });
    slimObject(only);
    expect(only.metadata.annotations).toEqual({});
    const others = object({ annotations: { team: 'payments' }, managedFields: [] });
    const annotations = others.metadata.annotations;
    slimObject(others);
    expect(others.metadata.annotations).toBe(annotations);
    expect('managedFields' in others.metadata).toBe(false);
  });

  it('an object with neither keeps its metadata object (a second pass changes nothing)', () => {
    const o = object({ uid: 'u', annotations: { team: 'payments' } });
    const metadata = o.metadata;
    slimObject(o);
    expect(o.metadata).toBe(metadata);
  });
});

describe('restartDelay', () => {
  it('retries at once after a first failure, then backs off with jitter up to 30 s', () => {
    expect(restartDelay(1, () => 0.5)).toBe(0);
    expect(restartDelay(2, () => 0.5)).toBe(1000);
    expect(restartDelay(3, () => 0)).toBe(1600);
    expect(restartDelay(3, () => 1)).toBe(2400);
    expect(restartDelay(20, () => 0.5)).toBe(15_000);
    expect(restartDelay(20, () => 1)).toBe(18_000);
  });
});
