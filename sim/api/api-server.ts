import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '@/lib/k8s/types';
import type { ClusterProfile, ResourceType } from './catalog';
import { resourcesFor } from './catalog';
import { matchesFields, parseFieldSelector } from './field-selector';
import { labelMatcher } from './label-selector';
import { ApiStatusError, statusErrors } from './status';
import type { ObjectStore, StoredEvent } from './store';
import { ConflictError } from './store';
import type { IncludeObject } from './table';
import { toTable, wantsTable } from './table';

export interface ClusterFaults {
  /** Connection refused: the cluster's listener is closed. Applied by the fleet, not here. */
  down: boolean;
  /** Added before every answer. */
  latencyMs: number;
  /** Fraction (0..1) of requests answered 500 InternalError. */
  errorRate: number;
  /** Watch streams are cut abruptly after this many seconds (0 = never). */
  watchCutSeconds: number;
  /** Resources answered 403: `plural` or `plural.group` (e.g. `horizontalpodautoscalers.autoscaling`). */
  forbidden: string[];
  /**
   * A network partition: nothing reaches the client and nothing is refused or reset. Requests are held unanswered
   * and open watch streams go quiet; when the partition ends the held requests are answered and the streams deliver
   * what they held, in order, as TCP would after retransmission. Applied by the fleet (`SimApiServer.setPartitioned`).
   */
  partitioned: boolean;
  /**
   * With `partitioned`: when the partition ends, the connections it held are dead instead of delivered (a partition
   * long enough for them to be lost): held requests are never answered, open streams never write again, and nothing on
   * those connections is read or closed. Connections made after it work. Applied by the fleet (`SimCluster`).
   */
  partitionBreaks: boolean;
}

export const noFaults = (): ClusterFaults => ({
  down: false,
  latencyMs: 0,
  errorRate: 0,
  watchCutSeconds: 0,
  forbidden: [],
  partitioned: false,
  partitionBreaks: false,
});

export interface RequestLogEntry {
  at: string;
  cluster: string;
  method: string;
  /** Kubernetes verb: get, list, watch, create, update, patch, delete, or `discovery`/`proxy`/`metrics`. */
  verb: string;
  path: string;
  status: number;
  userAgent: string;
  /**
   * The last resourceVersion served: a list's, or the last object version a watch delivered (what a client
   * of this request could know of the resource, exactly).
   */
  rv?: string;
  /**
   * A watch that served (no 410): the version it started from. With `rv` it bounds the versions the client
   * saw every change of: [fromRv, rv].
   */
  fromRv?: string;
}

export interface MetricValue {
  describedObject: { kind: string; name: string; apiVersion: string; namespace?: string };
  metricName: string;
  timestamp: string;
  windowSeconds?: number;
  value: string;
  selector?: unknown;
}

/** What the simulated workloads expose on read: pods, pod metrics, custom and external metrics. */
export interface VirtualSource {
  list(resource: ResourceType, namespace: string | undefined): KubeObject[];
  podsMetric?(namespace: string, metric: string, selector: string): MetricValue[] | Error;
  objectMetric?(namespace: string, resource: string, name: string, metric: string): MetricValue[] | Error;
  externalMetric?(
    namespace: string,
    metric: string,
    selector: string,
  ): { metricName: string; metricLabels: Record<string, string>; timestamp: string; value: string }[] | Error;
}

export interface SimApiServerOptions {
  name: string;
  profile: ClusterProfile;
  store: ObjectStore;
  token: string;
  /** The user the token belongs to, as named in 403 messages. */
  user: string;
  kubernetesVersion: string;
  faults: ClusterFaults;
  virtual?: VirtualSource;
  /** Karmada control plane only: member clusters behind the aggregated proxy. */
  members?: () => Map<string, SimApiServer>;
  log: (entry: RequestLogEntry) => void;
  now?: () => Date;
  random?: () => number;
  /**
   * Interval of BOOKMARK events for watches that allow them; 60 s by default, as kube-apiserver's watch cache sends
   * them (`defaultBookmarkFrequency`), and one more 2 s before the watch's deadline.
   */
  bookmarkMs?: number;
}

interface ResourcePath {
  resource: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
}

const json = 'application/json';

/**
 * One simulated cluster's Kubernetes API: discovery, get/list/watch with selectors and paging,
 * Table answers, the status and scale subresources, writes, and Karmada's member proxy.
 * Every request is logged with its verb so a test can assert that Autoscope only reads.
 */
export class SimApiServer {
  readonly resources: ResourceType[];
  private readonly now: () => Date;
  private readonly random: () => number;
  /**
   * Open watch streams: how to stop each (unsubscribe, clear timers), and at the end of a partition how to deliver
   * what it held back (`flush`) or to leave it dead (`kill`, `partitionBreaks`).
   */
  private readonly openWatches = new Map<ServerResponse, { stop: () => void; flush: () => void; kill: () => void }>();
  /** While partitioned: requests that arrived, answered when it ends. */
  private readonly held: (() => void)[] = [];

  constructor(readonly options: SimApiServerOptions) {
    this.resources = resourcesFor(options.profile);
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
  }

  get name(): string {
    return this.options.name;
  }

  /** Ends every open watch stream (used when a cluster goes down). */
  cutWatches(abrupt: boolean): void {
    for (const [res, { stop }] of [...this.openWatches]) {
      stop();
      if (abrupt) res.destroy();
      else res.end();
    }
  }

  /**
   * Starts or ends a partition (`ClusterFaults.partitioned`): at its end, every held request and stream write goes out,
   * or, when the partition broke its connections (`partitionBreaks`), none ever does (the fleet stops reading them).
   */
  setPartitioned(on: boolean): void {
    this.options.faults.partitioned = on;
    if (on) return;
    const held = this.held.splice(0);
    const streams = [...this.openWatches.values()];
    if (this.options.faults.partitionBreaks) {
      for (const { kill } of streams) kill();
      return;
    }
    for (const { flush } of streams) flush();
    for (const run of held) run();
  }

  handle(req: IncomingMessage, res: ServerResponse, options: { path?: string; authenticated?: boolean } = {}): void {
    if (this.options.faults.partitioned) {
      // A client that gave up meanwhile (its timeout) is gone: nothing to answer, no watch to start for nobody.
      let gone = false;
      res.once('close', () => {
        gone = true;
      });
      this.held.push(() => {
        if (!gone) this.handle(req, res, options);
      });
      return;
    }
    const url = new URL(options.path ?? req.url ?? '/', 'http://sim.local');
    const entry: RequestLogEntry = {
      at: this.now().toISOString(),
      cluster: this.name,
      method: req.method ?? 'GET',
      verb: 'get',
      path: url.pathname,
      status: 0,
      userAgent: String(req.headers['user-agent'] ?? ''),
    };
    res.on('finish', () => this.options.log({ ...entry, status: res.statusCode }));
    res.on('close', () => {
      if (!res.writableFinished) this.options.log({ ...entry, status: res.statusCode || 499 });
    });
    const run = (): void => {
      try {
        if (!options.authenticated && !this.authenticated(req)) throw statusErrors.unauthorized();
        this.route(req, res, url, entry, options.authenticated === true);
      } catch (err) {
        this.fail(res, err);
      }
    };
    const { latencyMs } = this.options.faults;
    if (latencyMs > 0) setTimeout(run, latencyMs);
    else run();
  }

  private authenticated(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    return header === `Bearer ${this.options.token}`;
  }

  private fail(res: ServerResponse, err: unknown): void {
    const status =
      err instanceof ApiStatusError
        ? err
        : err instanceof ConflictError
          ? statusErrors.conflict(err.resource, '', err.key)
          : statusErrors.internal(err instanceof Error ? err.message : String(err));
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(status.code, { 'Content-Type': json });
    res.end(JSON.stringify(status.body));
  }

  private send(res: ServerResponse, code: number, body: unknown): void {
    res.writeHead(code, { 'Content-Type': json, 'Cache-Control': 'no-cache, private' });
    res.end(JSON.stringify(body));
  }

  private route(req: IncomingMessage, res: ServerResponse, url: URL, entry: RequestLogEntry, viaProxy: boolean): void {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);

    if (
      segments[0] === 'apis' &&
      segments[1] === 'cluster.karmada.io' &&
      segments[3] === 'clusters' &&
      segments[5] === 'proxy' &&
      this.options.members
    ) {
      entry.verb = 'proxy';
      this.proxy(req, res, segments[4] ?? '', `/${segments.slice(6).map(encodeURIComponent).join('/')}${url.search}`);
      return;
    }

    // Faults apply to everything but discovery of /version (kubectl's dispatcher must still start).
    if (this.options.faults.errorRate > 0 && path !== '/version' && this.random() < this.options.faults.errorRate) {
      throw statusErrors.internal('simulated apiserver failure');
    }

    if (
      method === 'GET' &&
      (path === '/version' || path === '/healthz' || path === '/readyz' || path === '/livez' || path === '/api' || path === '/apis')
    ) {
      entry.verb = 'discovery';
      if (path === '/version') return this.send(res, 200, this.version());
      if (path === '/api')
        return this.send(res, 200, {
          kind: 'APIVersions',
          versions: ['v1'],
          serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: req.headers.host ?? '' }],
        });
      if (path === '/apis') return this.send(res, 200, this.groupList());
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }

    if (segments[0] === 'api' && segments[1] === 'v1' && segments.length === 2) {
      entry.verb = 'discovery';
      return this.send(res, 200, this.resourceList('', 'v1'));
    }
    if (segments[0] === 'apis' && segments.length === 2) {
      entry.verb = 'discovery';
      const group = this.groupList().groups.find((g) => g.name === segments[1]);
      if (!group) throw statusErrors.pathNotFound();
      return this.send(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...group });
    }
    if (segments[0] === 'apis' && segments.length === 3) {
      entry.verb = 'discovery';
      const list = this.resourceList(segments[1] ?? '', segments[2] ?? '');
      if (list.resources.length === 0) throw statusErrors.pathNotFound();
      return this.send(res, 200, list);
    }

    if (segments[0] === 'apis' && (segments[1] === 'custom.metrics.k8s.io' || segments[1] === 'external.metrics.k8s.io')) {
      entry.verb = 'get';
      return this.metricsApi(res, segments, url);
    }

    const target = this.parseResourcePath(segments);
    if (!target) throw statusErrors.pathNotFound();
    const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    const verb = this.verbOf(method, target, watch);
    entry.verb = verb;
    this.authorize(verb, target);
    void viaProxy;

    switch (verb) {
      case 'get':
        return this.get(req, res, url, target);
      case 'list':
        return this.list(req, res, url, target, entry);
      case 'watch':
        return this.watch(req, res, url, target, entry);
      case 'create':
      case 'update':
      case 'patch':
        return this.write(req, res, verb, target);
      case 'delete':
        return this.remove(res, target);
      default:
        throw statusErrors.methodNotAllowed(`the server does not allow this method on the requested resource`);
    }
  }

  private verbOf(method: string, target: ResourcePath, watch: boolean): string {
    switch (method) {
      case 'GET':
        if (target.name) return 'get';
        return watch ? 'watch' : 'list';
      case 'POST':
        return 'create';
      case 'PUT':
        return 'update';
      case 'PATCH':
        return 'patch';
      case 'DELETE':
        return 'delete';
      default:
        return method.toLowerCase();
    }
  }

  private authorize(verb: string, target: ResourcePath): void {
    const { plural, group } = target.resource;
    const forbidden = this.options.faults.forbidden.some(
      (f) => f === plural || f === `${plural}.${group}` || (group === '' && f === `${plural}.core`),
    );
    if (forbidden) throw statusErrors.forbidden(verb, plural, group, target.namespace, this.options.user);
  }

  private version(): Record<string, string> {
    const v = this.options.kubernetesVersion.replace(/^v/, '');
    const [major = '1', minor = '0'] = v.split('.');
    return {
      major,
      minor,
      gitVersion: `v${v}`,
      gitCommit: '0000000000000000000000000000000000000000',
      gitTreeState: 'clean',
      buildDate: '2026-01-01T00:00:00Z',
      goVersion: 'go1.24.0',
      compiler: 'gc',
      platform: 'linux/amd64',
    };
  }

  private groupList(): {
    kind: 'APIGroupList';
    apiVersion: 'v1';
    groups: {
      name: string;
      versions: { groupVersion: string; version: string }[];
      preferredVersion: { groupVersion: string; version: string };
    }[];
  } {
    const groups = new Map<string, string[]>();
    for (const r of this.resources) {
      if (r.group === '') continue;
      const versions = groups.get(r.group) ?? [];
      if (!versions.includes(r.version)) versions.push(r.version);
      groups.set(r.group, versions);
    }
    if (this.options.virtual?.podsMetric && this.options.profile !== 'karmada') {
      groups.set('custom.metrics.k8s.io', ['v1beta2']);
      groups.set('external.metrics.k8s.io', ['v1beta1']);
    }
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [...groups.entries()].map(([name, versions]) => ({
        name,
        versions: versions.map((version) => ({ groupVersion: `${name}/${version}`, version })),
        preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] ?? '' },
      })),
    };
  }

  private resourceList(
    group: string,
    version: string,
  ): { kind: 'APIResourceList'; apiVersion: 'v1'; groupVersion: string; resources: Record<string, unknown>[] } {
    const groupVersion = group ? `${group}/${version}` : version;
    const resources: Record<string, unknown>[] = [];
    if ((group === 'custom.metrics.k8s.io' || group === 'external.metrics.k8s.io') && this.options.virtual?.podsMetric) {
      const names =
        group === 'custom.metrics.k8s.io'
          ? ['pods/http_requests_per_second', 'ingresses.networking.k8s.io/requests_per_second', 'services/requests_per_second']
          : ['queue_messages_ready', 'pubsub_undelivered_messages'];
      for (const name of names) resources.push({ name, singularName: '', namespaced: true, kind: 'MetricValueList', verbs: ['get'] });
      return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
    }
    for (const r of this.resources) {
      if (r.group !== group || r.version !== version) continue;
      resources.push({
        name: r.plural,
        singularName: r.singular,
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: r.verbs,
        ...(r.shortNames ? { shortNames: r.shortNames } : {}),
        ...(r.categories ? { categories: r.categories } : {}),
        storageVersionHash: Buffer.from(`${r.storage}`).toString('base64').slice(0, 11),
      });
      for (const sub of r.subresources) {
        if (sub === 'status')
          resources.push({
            name: `${r.plural}/status`,
            singularName: '',
            namespaced: r.namespaced,
            kind: r.kind,
            verbs: ['get', 'patch', 'update'],
          });
        if (sub === 'scale')
          resources.push({
            name: `${r.plural}/scale`,
            singularName: '',
            namespaced: r.namespaced,
            group: 'autoscaling',
            version: 'v1',
            kind: 'Scale',
            verbs: ['get', 'patch', 'update'],
          });
        if (sub === 'proxy')
          resources.push({
            name: `${r.plural}/proxy`,
            singularName: '',
            namespaced: r.namespaced,
            kind: 'ClusterProxyOptions',
            verbs: ['create', 'delete', 'get', 'patch', 'update'],
          });
      }
    }
    return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
  }

  private parseResourcePath(segments: string[]): ResourcePath | null {
    let group: string;
    let version: string;
    let rest: string[];
    if (segments[0] === 'api' && segments[1] === 'v1') {
      group = '';
      version = 'v1';
      rest = segments.slice(2);
    } else if (segments[0] === 'apis' && segments.length >= 4) {
      group = segments[1] ?? '';
      version = segments[2] ?? '';
      rest = segments.slice(3);
    } else {
      return null;
    }
    const find = (plural: string | undefined): ResourceType | undefined =>
      this.resources.find((r) => r.group === group && r.version === version && r.plural === plural);
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      const candidate = find(rest[2]);
      if (candidate?.namespaced) {
        namespace = rest[1];
        rest = rest.slice(2);
      }
    }
    const resource = find(rest[0]);
    if (!resource) return null;
    if (rest.length > 3) return null;
    const subresource = rest[2];
    if (subresource && !resource.subresources.includes(subresource as 'status' | 'scale' | 'proxy')) return null;
    return { resource, namespace, name: rest[1], subresource };
  }

  private selectObjects(target: ResourcePath, url: URL): KubeObject[] {
    const { resource } = target;
    const label = labelMatcher(url.searchParams.get('labelSelector') ?? '');
    const fields = parseFieldSelector(url.searchParams.get('fieldSelector') ?? '', resource.fieldLabels, resource.kind);
    return this.storedObjects(target)
      .map((o) => this.served(resource, o))
      .filter((o) => label(o.metadata.labels ?? {}) && matchesFields(o, fields));
  }

  /** The objects of a list request as stored (sorted by key), before conversion and selectors. */
  private storedObjects(target: ResourcePath): KubeObject[] {
    const { resource, namespace } = target;
    return resource.virtual
      ? (this.options.virtual?.list(resource, namespace) ?? [])
      : this.options.store.list(resource.storage, namespace);
  }

  /** The stored object as this version serves it (conversion, apiVersion and kind filled). */
  private served(resource: ResourceType, object: KubeObject): KubeObject {
    const converted = resource.fromStorage ? resource.fromStorage(object) : object;
    return { ...converted, apiVersion: resource.group ? `${resource.group}/${resource.version}` : resource.version, kind: resource.kind };
  }

  private lookup(target: ResourcePath): KubeObject {
    const { resource, namespace, name = '' } = target;
    const object = resource.virtual
      ? this.options.virtual?.list(resource, namespace).find((o) => o.metadata.name === name)
      : this.options.store.get(resource.storage, resource.namespaced ? namespace : undefined, name);
    if (!object) throw statusErrors.notFound(resource.plural, resource.group, name);
    return this.served(resource, object);
  }

  private get(req: IncomingMessage, res: ServerResponse, url: URL, target: ResourcePath): void {
    const object = this.lookup(target);
    if (target.subresource === 'scale') return this.send(res, 200, this.scaleOf(target.resource, object));
    if (wantsTable(req.headers.accept)) {
      return this.send(
        res,
        200,
        toTable(target.resource, [object], { resourceVersion: object.metadata.resourceVersion ?? '' }, this.now(), includeObject(url)),
      );
    }
    this.send(res, 200, object);
  }

  private scaleOf(resource: ResourceType, object: KubeObject): Record<string, unknown> {
    const spec = (object.spec ?? {}) as Record<string, unknown>;
    const status = (object.status ?? {}) as Record<string, unknown>;
    const selectorKey = resource.scale?.labelSelectorPath.split('.').pop() ?? 'selector';
    // A Deployment's scale selector is computed from spec.selector, as the apps registry does.
    const matchLabels = (spec.selector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels;
    const selector =
      resource.kind === 'Deployment' && matchLabels
        ? Object.entries(matchLabels)
            .map(([k, v]) => `${k}=${v}`)
            .join(',')
        : status[selectorKey];
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: object.metadata.name,
        namespace: object.metadata.namespace,
        uid: object.metadata.uid,
        resourceVersion: object.metadata.resourceVersion,
        creationTimestamp: object.metadata.creationTimestamp,
      },
      spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 0 },
      status: {
        replicas: typeof status.replicas === 'number' ? status.replicas : 0,
        ...(typeof selector === 'string' ? { selector } : {}),
      },
    };
  }

  private list(req: IncomingMessage, res: ServerResponse, url: URL, target: ResourcePath, entry: RequestLogEntry): void {
    const resourceVersion = this.options.store.resourceVersion;
    entry.rv = resourceVersion;
    // Without a selector every object is served, so only a page's objects are converted (as kube-apiserver reads only
    // a page's keys): converting the whole list for each page made a paged list cost its pages times the whole.
    const selected = url.searchParams.has('labelSelector') || url.searchParams.has('fieldSelector');
    let items = selected ? this.selectObjects(target, url) : this.storedObjects(target);
    const limit = Number(url.searchParams.get('limit') ?? 0);
    const token = url.searchParams.get('continue');
    let start = 0;
    if (token) {
      const decoded = decodeContinue(token);
      if (!decoded) throw statusErrors.badRequest('continue key is not valid: illegal base64 data');
      start = items.findIndex((o) => keyOf(o) > decoded.start);
      if (start < 0) start = items.length;
    }
    let continueToken: string | undefined;
    let remaining: number | undefined;
    if (limit > 0 && start + limit < items.length) {
      const page = items.slice(start, start + limit);
      const last = page[page.length - 1];
      continueToken = last ? encodeContinue({ rv: resourceVersion, start: keyOf(last) }) : undefined;
      remaining = items.length - start - limit;
      items = page;
    } else {
      items = items.slice(start);
    }
    const { resource } = target;
    if (!selected) items = items.map((o) => this.served(resource, o));
    if (wantsTable(req.headers.accept)) {
      return this.send(
        res,
        200,
        toTable(
          resource,
          items,
          { resourceVersion, continue: continueToken, remainingItemCount: remaining },
          this.now(),
          includeObject(url),
        ),
      );
    }
    this.send(res, 200, {
      kind: `${resource.kind}List`,
      apiVersion: resource.group ? `${resource.group}/${resource.version}` : resource.version,
      metadata: { resourceVersion, ...(continueToken ? { continue: continueToken, remainingItemCount: remaining } : {}) },
      items,
    });
  }

  private watch(req: IncomingMessage, res: ServerResponse, url: URL, target: ResourcePath, entry: RequestLogEntry): void {
    const { resource, namespace } = target;
    const store = this.options.store;
    const label = labelMatcher(url.searchParams.get('labelSelector') ?? '');
    const fields = parseFieldSelector(url.searchParams.get('fieldSelector') ?? '', resource.fieldLabels, resource.kind);
    const table = wantsTable(req.headers.accept);
    const include = includeObject(url);
    const rvParam = url.searchParams.get('resourceVersion') ?? '';
    const bookmarks = url.searchParams.get('allowWatchBookmarks') === 'true';
    const timeoutSeconds = Number(url.searchParams.get('timeoutSeconds') ?? 0) || 1800 + Math.floor(this.random() * 1800);

    let replay: StoredEvent[] | null = [];
    if (rvParam !== '' && rvParam !== '0') {
      const rv = Number(rvParam);
      if (!Number.isInteger(rv))
        throw statusErrors.badRequest(
          `resourceVersion: Invalid value: "${rvParam}": strconv.ParseUint: parsing "${rvParam}": invalid syntax`,
        );
      replay = resource.virtual ? [] : store.eventsSince(resource.storage, rv);
    }

    res.writeHead(200, { 'Content-Type': json, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();

    const matches = (o: KubeObject): boolean =>
      (namespace === undefined || o.metadata.namespace === namespace) && label(o.metadata.labels ?? {}) && matchesFields(o, fields);
    // What a partition holds back (`ClusterFaults.partitioned`), delivered in order when it ends; or, when it broke the
    // connection (`partitionBreaks`), nothing more ever, and the connection is not closed either.
    const heldLines: string[] = [];
    let dead = false;
    const send = (line: string): void => {
      if (dead || res.writableEnded || res.destroyed) return;
      if (this.options.faults.partitioned) {
        heldLines.push(line);
        return;
      }
      const ok = res.write(line);
      // A client that does not read is dropped rather than buffered without bound.
      if (!ok && res.writableLength > 8 * 1024 * 1024) res.destroy();
    };
    const flushHeld = (): void => {
      for (const line of heldLines.splice(0)) send(line);
    };
    const write = (type: string, object: KubeObject): void => {
      const payload = table
        ? toTable(resource, [object], { resourceVersion: object.metadata.resourceVersion ?? '' }, this.now(), include)
        : object;
      send(`${JSON.stringify({ type, object: payload })}\n`);
      if (type !== 'ERROR' && object.metadata.resourceVersion) entry.rv = object.metadata.resourceVersion;
    };

    if (replay === null) {
      write('ERROR', statusErrors.gone(rvParam, String(store.oldestResumable(resource.storage))).body as unknown as KubeObject);
      res.end();
      return;
    }
    entry.fromRv = rvParam === '' || rvParam === '0' ? store.resourceVersion : rvParam;
    if (rvParam === '' || rvParam === '0') {
      const current = resource.virtual ? (this.options.virtual?.list(resource, namespace) ?? []) : store.list(resource.storage, namespace);
      for (const o of current) {
        const served = this.served(resource, o);
        if (matches(served)) write('ADDED', served);
      }
    } else {
      for (const e of replay) {
        const served = this.served(resource, e.object);
        if (matches(served)) write(e.type, served);
      }
    }

    const unsubscribe = resource.virtual
      ? (): void => undefined
      : store.subscribe({
          resource: resource.storage,
          namespace,
          onEvent: (e) => {
            const served = this.served(resource, e.object);
            if (matches(served)) write(e.type, served);
          },
        });

    const timers: NodeJS.Timeout[] = [];
    const finish = (): void => {
      unsubscribe();
      timers.forEach(clearTimeout);
      timers.forEach(clearInterval);
      this.openWatches.delete(res);
    };
    const killHeld = (): void => {
      dead = true;
      heldLines.length = 0;
      finish();
    };
    this.openWatches.set(res, { stop: finish, flush: flushHeld, kill: killHeld });
    res.on('close', finish);
    timers.push(
      setTimeout(() => {
        finish();
        res.end();
      }, timeoutSeconds * 1000),
    );
    if (bookmarks) {
      // upstream: kubernetes staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go (04d6b4f) nextBookmarkTime —
      // a bookmark "roughly every minute" and one 2 s before the watcher's deadline.
      const group = resource.group ? `${resource.group}/${resource.version}` : resource.version;
      const bookmark = (): void =>
        send(
          `${JSON.stringify({ type: 'BOOKMARK', object: { kind: resource.kind, apiVersion: group, metadata: { resourceVersion: store.resourceVersion } } })}\n`,
        );
      timers.push(setInterval(bookmark, this.options.bookmarkMs ?? 60_000));
      if (timeoutSeconds > 2) timers.push(setTimeout(bookmark, (timeoutSeconds - 2) * 1000));
    }
    const cut = this.options.faults.watchCutSeconds;
    if (cut > 0)
      timers.push(
        setTimeout(() => {
          finish();
          res.destroy();
        }, cut * 1000),
      );
  }

  private write(req: IncomingMessage, res: ServerResponse, verb: 'create' | 'update' | 'patch', target: ResourcePath): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as KubeObject & Record<string, unknown>;
        this.send(res, verb === 'create' ? 201 : 200, this.applyWrite(verb, target, body, String(req.headers['content-type'] ?? '')));
      } catch (err) {
        this.fail(res, err instanceof SyntaxError ? statusErrors.badRequest(`error decoding body: ${err.message}`) : err);
      }
    });
  }

  private applyWrite(
    verb: 'create' | 'update' | 'patch',
    target: ResourcePath,
    body: Partial<KubeObject> & Record<string, unknown>,
    contentType: string,
  ): unknown {
    const { resource, namespace } = target;
    const store = this.options.store;
    const toStorage = (o: KubeObject): KubeObject => (resource.toStorage ? resource.toStorage(o) : o);
    const ns = resource.namespaced ? namespace : undefined;
    if (verb === 'create') {
      if (!body.metadata?.name) throw statusErrors.badRequest('metadata.name: Required value: name is required');
      if (store.get(resource.storage, ns, body.metadata.name))
        throw statusErrors.alreadyExists(resource.plural, resource.group, body.metadata.name);
      return this.served(
        resource,
        store.create(resource.storage, toStorage({ ...body, metadata: { ...body.metadata, namespace: ns } }), 'kubectl'),
      );
    }
    const current = this.lookup(target);
    if (target.subresource === 'scale') {
      const replicas =
        verb === 'patch'
          ? (body.spec as { replicas?: number } | undefined)?.replicas
          : (body.spec as { replicas?: number } | undefined)?.replicas;
      if (typeof replicas !== 'number') throw statusErrors.badRequest('spec.replicas: Required value');
      const stored = store.mutate(
        resource.storage,
        ns,
        current.metadata.name,
        (o) => ({ ...o, spec: { ...(o.spec as object), replicas } }),
        { subresource: 'scale' },
      );
      return this.scaleOf(resource, this.served(resource, stored ?? current));
    }
    let next: KubeObject;
    if (verb === 'patch') {
      if (contentType.includes('json-patch+json'))
        throw statusErrors.badRequest('JSON patch is not supported by the simulator; use a merge patch');
      next = mergePatch(current, body) as KubeObject;
    } else {
      next = { ...body, metadata: body.metadata ?? current.metadata };
    }
    if (target.subresource === 'status') next = { ...current, status: next.status };
    else if (resource.subresources.includes('status')) next = { ...next, status: current.status };
    const stored = store.update(
      resource.storage,
      toStorage({ ...next, metadata: { ...next.metadata, name: current.metadata.name, namespace: ns } }),
      { manager: 'kubectl', subresource: target.subresource === 'status' ? 'status' : undefined },
    );
    return this.served(resource, stored);
  }

  private remove(res: ServerResponse, target: ResourcePath): void {
    const { resource, namespace, name = '' } = target;
    if (!name) throw statusErrors.methodNotAllowed('deletecollection is not supported by the simulator');
    const deleted = this.options.store.delete(resource.storage, resource.namespaced ? namespace : undefined, name);
    if (!deleted) throw statusErrors.notFound(resource.plural, resource.group, name);
    this.send(res, 200, this.served(resource, deleted));
  }

  private metricsApi(res: ServerResponse, segments: string[], url: URL): void {
    const virtual = this.options.virtual;
    const selector = url.searchParams.get('labelSelector') ?? '';
    // custom.metrics.k8s.io/v1beta2/namespaces/{ns}/pods/*/{metric}  or  …/{resource}/{name}/{metric}
    // external.metrics.k8s.io/v1beta1/namespaces/{ns}/{metric}
    const [, group, version, nsWord, ns = '', a, b, c] = segments;
    if (nsWord !== 'namespaces' || !virtual) throw statusErrors.pathNotFound();
    if (group === 'external.metrics.k8s.io') {
      const values = virtual.externalMetric?.(ns, a ?? '', selector);
      if (!values) throw statusErrors.pathNotFound();
      if (values instanceof Error) throw statusErrors.unavailable(values.message);
      return this.send(res, 200, {
        kind: 'ExternalMetricValueList',
        apiVersion: `external.metrics.k8s.io/${version}`,
        metadata: {},
        items: values,
      });
    }
    const values =
      a === 'pods' && b === '*' ? virtual.podsMetric?.(ns, c ?? '', selector) : virtual.objectMetric?.(ns, a ?? '', b ?? '', c ?? '');
    if (!values) throw statusErrors.pathNotFound();
    if (values instanceof Error) throw statusErrors.unavailable(values.message);
    this.send(res, 200, {
      kind: 'MetricValueList',
      apiVersion: `custom.metrics.k8s.io/${version}`,
      metadata: {},
      items: values.map((v) => ({
        describedObject: v.describedObject,
        metric: { name: v.metricName, ...(v.selector ? { selector: v.selector } : {}) },
        timestamp: v.timestamp,
        windowSeconds: v.windowSeconds ?? 60,
        value: v.value,
      })),
    });
  }

  private proxy(req: IncomingMessage, res: ServerResponse, member: string, path: string): void {
    const target = this.options.members?.().get(member);
    if (!target) throw statusErrors.notFound('clusters', 'cluster.karmada.io', member);
    if (target.options.faults.down) {
      // karmada-aggregated-apiserver answers like kube-apiserver's proxy when the backend refuses.
      throw statusErrors.unavailable(`error trying to reach service: dial tcp: connect: connection refused (member cluster ${member})`);
    }
    target.handle(req, res, { path, authenticated: true });
  }
}

function includeObject(url: URL): IncludeObject {
  const v = url.searchParams.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

function keyOf(o: KubeObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
}

function encodeContinue(token: { rv: string; start: string }): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(token.rv), start: token.start })).toString('base64url');
}

function decodeContinue(token: string): { start: string } | null {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { start?: unknown };
    return typeof parsed.start === 'string' ? { start: parsed.start } : null;
  } catch {
    return null;
  }
}

/** RFC 7386 JSON merge patch (strategic-merge patches are applied the same way: the simulator has no patch strategies). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete base[k];
    else base[k] = mergePatch(base[k], v);
  }
  return base;
}
