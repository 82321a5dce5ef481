import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { Server } from 'node:net';
import path from 'node:path';
import { stringify } from 'yaml';
import type { ClusterFaults, RequestLogEntry, SimApiServer, VirtualSource } from '../api/api-server';
import { noFaults } from '../api/api-server';
import type { ClusterProfile, ResourceType } from '../api/catalog';
import { catalog } from '../api/catalog';
import { SimCluster } from './sim-cluster';
import type { FleetTls } from './tls';
import { makeFleetTls } from './tls';

export interface FleetClusterSpec {
  name: string;
  profile: ClusterProfile;
  kubernetesVersion?: string;
  /** Karmada control plane only: the names of its member clusters (which must be listed too). */
  members?: string[];
  /** Members are reached through their control plane's proxy, not through their own kubeconfig context. */
  inKubeconfig?: boolean;
}

export interface FleetOptions {
  clusters: FleetClusterSpec[];
  dataDir: string;
  host?: string;
  /** Port of the loopback admin endpoint (0 = any free port). */
  adminPort?: number;
  virtualFor?: (cluster: string) => VirtualSource | undefined;
  retainedEvents?: number;
  bookmarkMs?: number;
  requestLogLimit?: number;
}

/**
 * A fleet of simulated clusters, each on its own loopback port, with a kubeconfig that kubectl and
 * client-node use as is, a request log, and a loopback admin endpoint for faults.
 */
export class Fleet {
  readonly clusters = new Map<string, SimCluster>();
  readonly requestLog: RequestLogEntry[] = [];
  private admin: Server | null = null;
  private tls: FleetTls | null = null;
  private adminBoundPort = 0;
  kubeconfigPath = '';
  /** Extra admin routes (the world adds episode and object endpoints). */
  adminRoutes: ((req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) => boolean | Promise<boolean>)[] = [];

  constructor(readonly options: FleetOptions) {
    const limit = options.requestLogLimit ?? 200_000;
    const log = (entry: RequestLogEntry): void => {
      this.requestLog.push(entry);
      if (this.requestLog.length > limit) this.requestLog.splice(0, this.requestLog.length - limit);
    };
    for (const spec of options.clusters) {
      const memberNames = spec.members ?? [];
      const cluster = new SimCluster({
        name: spec.name,
        profile: spec.profile,
        kubernetesVersion: spec.kubernetesVersion,
        host: options.host,
        log,
        virtual: options.virtualFor?.(spec.name),
        retainedEvents: options.retainedEvents,
        bookmarkMs: options.bookmarkMs,
        tls: () => {
          if (!this.tls) throw new Error('fleet TLS is made in start()');
          return this.tls;
        },
        members: memberNames.length
          ? (): Map<string, SimApiServer> => {
              const out = new Map<string, SimApiServer>();
              for (const m of memberNames) {
                const member = this.clusters.get(m);
                if (member) out.set(m, member.api);
              }
              return out;
            }
          : undefined,
      });
      this.clusters.set(spec.name, cluster);
    }
  }

  /** PEM of the CA that signed every simulated cluster's serving certificate. */
  get caCert(): string {
    if (!this.tls) throw new Error('fleet not started');
    return this.tls.caCert;
  }

  get adminPort(): number {
    return this.adminBoundPort;
  }

  get adminUrl(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.adminBoundPort}`;
  }

  cluster(name: string): SimCluster {
    const c = this.clusters.get(name);
    if (!c) throw new Error(`no simulated cluster ${name}`);
    return c;
  }

  async start(): Promise<void> {
    this.tls ??= await makeFleetTls();
    for (const cluster of this.clusters.values()) await cluster.listen();
    this.writeKubeconfig();
    await this.startAdmin();
  }

  async stop(): Promise<void> {
    for (const cluster of this.clusters.values()) await cluster.close();
    const admin = this.admin;
    this.admin = null;
    if (admin) await new Promise<void>((resolve) => admin.close(() => resolve()));
  }

  /** One context per cluster in the kubeconfig; Karmada members are reached through their control plane. */
  writeKubeconfig(): string {
    mkdirSync(this.options.dataDir, { recursive: true });
    const listed = this.options.clusters.filter((c) => c.inKubeconfig !== false);
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      preferences: {},
      clusters: listed.map((c) => ({
        name: c.name,
        cluster: { server: this.cluster(c.name).url, 'certificate-authority-data': Buffer.from(this.caCert).toString('base64') },
      })),
      users: listed.map((c) => ({ name: `${c.name}-reader`, user: { token: this.cluster(c.name).token } })),
      contexts: listed.map((c) => ({ name: c.name, context: { cluster: c.name, user: `${c.name}-reader` } })),
      'current-context': listed[0]?.name ?? '',
    };
    this.kubeconfigPath = path.join(this.options.dataDir, 'kubeconfig');
    writeFileSync(this.kubeconfigPath, stringify(config), { mode: 0o600 });
    return this.kubeconfigPath;
  }

  async setFaults(name: string, faults: Partial<ClusterFaults>): Promise<ClusterFaults> {
    const cluster = this.cluster(name);
    const { down, ...rest } = faults;
    cluster.applyFaults(rest);
    if (down !== undefined && down !== cluster.faults.down) await cluster.setDown(down);
    return { ...cluster.faults };
  }

  async clearFaults(name: string): Promise<ClusterFaults> {
    return this.setFaults(name, noFaults());
  }

  private async startAdmin(): Promise<void> {
    const server = createServer((req, res) => {
      void this.handleAdmin(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.adminPort ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address && typeof address === 'object') this.adminBoundPort = address.port;
    this.admin = server;
  }

  private async handleAdmin(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (code: number, body: unknown): void => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? '/', 'http://admin.local');
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const body: unknown = raw ? JSON.parse(raw) : undefined;
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (req.method === 'GET' && url.pathname === '/healthz') return send(200, { status: 'ok' });
      if (req.method === 'GET' && url.pathname === '/clusters') {
        return send(
          200,
          [...this.clusters.values()].map((c) => ({
            name: c.name,
            profile: c.profile,
            url: c.url,
            faults: c.faults,
            counts: Object.fromEntries(
              (Object.entries(catalog) as [string, ResourceType][])
                .filter(([, r]) => !r.virtual)
                .map(([k, r]) => [k, c.store.count(r.storage)]),
            ),
          })),
        );
      }
      if (parts[0] === 'clusters' && parts[2] === 'faults' && parts[1]) {
        if (req.method === 'PUT' || req.method === 'POST') return send(200, await this.setFaults(parts[1], body ?? {}));
        if (req.method === 'DELETE') return send(200, await this.clearFaults(parts[1]));
      }
      if (url.pathname === '/requests') {
        if (req.method === 'DELETE') {
          this.requestLog.length = 0;
          return send(200, { cleared: true });
        }
        const cluster = url.searchParams.get('cluster');
        const since = url.searchParams.get('since');
        return send(
          200,
          this.requestLog.filter((e) => (!cluster || e.cluster === cluster) && (!since || e.at >= since)),
        );
      }
      for (const route of this.adminRoutes) {
        if (await route(req, res, url, body)) return;
      }
      send(404, { error: `no admin route ${req.method} ${url.pathname}` });
    } catch (err) {
      send(400, { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
