import type { KubeObject } from '@/lib/k8s/types';

/**
 * The object an index entry was mapped from, as the API served it (slimmed: `slimObject`). Read rarely — the detail
 * page's YAML, explain, the minute's re-map of an HPA whose verdict the clock moves, a replica publishing it — and
 * written on every new resourceVersion.
 */
export interface HeldObject {
  readonly resourceVersion: string | undefined;
  /** The object; `HeldJson` makes a new one on each call (its reader may keep or change it). */
  object(): KubeObject;
}

/** Kept as it is: the informer's cache holds this very object (MachineAutoscalers, FederatedHPAs: a few per cluster). */
export class HeldAsIs implements HeldObject {
  constructor(private readonly held: KubeObject) {}

  get resourceVersion(): string | undefined {
    return this.held.metadata.resourceVersion;
  }

  object(): KubeObject {
    return this.held;
  }
}

/**
 * Kept as its JSON's UTF-8 bytes outside V8's heap: an HPA (a hundred thousand of them in a large fleet). As parsed
 * objects they were a quarter of the live heap (1.13 KiB an HPA, strings shared) in some forty small objects each,
 * which every major collection marks and every change promoted to old space before it died; as bytes an HPA is one
 * small object on the heap and its ~1.4 KB beside it, and the object a watch event brought dies young. Encoding is
 * ~10 µs a change (`JSON.stringify`, one copy); reading one back ~8 µs.
 *
 * Each has its own allocation (`allocUnsafeSlow`), not a slice of Node's shared 8 KiB pool: a pool slab stays alive
 * while any slice of it does, and under churn one live HPA would keep the bytes of several replaced ones.
 */
export class HeldJson implements HeldObject {
  private readonly bytes: Buffer;
  readonly resourceVersion: string | undefined;

  constructor(object: KubeObject) {
    const json = JSON.stringify(object);
    this.bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    this.bytes.write(json, 0, 'utf8');
    this.resourceVersion = object.metadata.resourceVersion;
  }

  object(): KubeObject {
    return JSON.parse(this.bytes.toString('utf8')) as KubeObject;
  }

  /** Bytes held beside V8's heap. */
  get size(): number {
    return this.bytes.length;
  }
}
