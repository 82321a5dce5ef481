import { randomBytes } from 'node:crypto';
import type { Server, Socket } from 'node:net';
import { createServer } from 'node:https';
import type { ClusterFaults, RequestLogEntry, VirtualSource } from '../api/api-server';
import { noFaults, SimApiServer } from '../api/api-server';
import type { ClusterProfile } from '../api/catalog';
import { ObjectStore } from '../api/store';
import type { FleetTls } from './tls';

export interface SimClusterOptions {
  name: string;
  profile: ClusterProfile;
  kubernetesVersion?: string;
  /** Listen port; 0 picks a free one. */
  port?: number;
  host?: string;
  log: (entry: RequestLogEntry) => void;
  members?: () => Map<string, SimApiServer>;
  virtual?: VirtualSource;
  retainedEvents?: number;
  bookmarkMs?: number;
  tls: () => FleetTls;
}

/** One simulated cluster: its object store, its API, and a loopback listener that a fault can close. */
export class SimCluster {
  readonly store: ObjectStore;
  readonly api: SimApiServer;
  readonly token: string;
  readonly faults: ClusterFaults = noFaults();
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** TLS connections accepted so far (a client that keeps its connections makes few). */
  handshakes = 0;
  private boundPort = 0;

  constructor(readonly options: SimClusterOptions) {
    this.store = new ObjectStore({ retainedEvents: options.retainedEvents });
    // A per-cluster bearer token, prefixed so a test can scan Autoscope's responses and logs for it.
    this.token = `sim-token-${options.name.replace(/[^a-z0-9]/gi, '-')}-${randomBytes(12).toString('hex')}`;
    this.api = new SimApiServer({
      name: options.name,
      profile: options.profile,
      store: this.store,
      token: this.token,
      user: 'system:serviceaccount:autoscope:autoscope-reader',
      kubernetesVersion: options.kubernetesVersion ?? '1.33.2',
      faults: this.faults,
      virtual: options.virtual,
      members: options.members,
      log: options.log,
      bookmarkMs: options.bookmarkMs,
    });
  }

  get name(): string {
    return this.options.name;
  }

  get profile(): ClusterProfile {
    return this.options.profile;
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `https://${this.options.host ?? '127.0.0.1'}:${this.boundPort}`;
  }

  async listen(): Promise<void> {
    if (this.server) return;
    const { cert, key } = this.options.tls();
    const server = createServer({ cert, key }, (req, res) => this.api.handle(req, res));
    // kube-apiserver (Go's net/http) sends no `Keep-Alive: timeout=` hint, so a client keeps idle connections as long as
    // its own limit says; Node's server sends one whenever it has a keep-alive timeout, and undici follows it, which
    // would hide the client's limit. So none here: idle connections stay open (kube-apiserver closes them after 90 s;
    // not modelled).
    server.keepAliveTimeout = 0;
    // Every connection from its first byte, so `close` ends those still in their TLS handshake too: one that completed
    // after the listener closed would be served as if the cluster were up, and kept open (no keep-alive timeout, above),
    // `server.close` would wait for it for ever.
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('secureConnection', (socket: Socket) => {
      this.handshakes += 1;
      if (this.server !== server) {
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.boundPort || this.options.port || 0, this.options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (address && typeof address === 'object') this.boundPort = address.port;
    this.server = server;
  }

  /** Closes the listener and every connection abruptly: clients see connection refused / reset. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.api.cutWatches(true);
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async setDown(down: boolean): Promise<void> {
    this.faults.down = down;
    if (down) await this.close();
    else await this.listen();
  }

  /** Fault changes that affect open streams take effect at once. */
  applyFaults(next: Partial<ClusterFaults>): void {
    const cutNow = next.watchCutSeconds !== undefined && next.watchCutSeconds > 0 && next.watchCutSeconds !== this.faults.watchCutSeconds;
    const { partitioned, ...rest } = next;
    Object.assign(this.faults, rest);
    if (cutNow) this.api.cutWatches(true);
    if (partitioned !== undefined && partitioned !== this.faults.partitioned) {
      // Connections a partition broke are not read again (`partitionBreaks`): what a client sends on them is lost.
      if (!partitioned && this.faults.partitionBreaks) for (const socket of this.sockets) socket.pause();
      this.api.setPartitioned(partitioned);
    }
  }
}
