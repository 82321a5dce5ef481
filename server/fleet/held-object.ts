import { deflateRawSync, inflateRawSync } from 'node:zlib';
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

/** The epoch `HeldJson` counts its seconds from: this module's load, to the second. */
const epoch = Math.floor(Date.now() / 1000) * 1000;

/** Its own allocation, not a slice of Node's shared 8 KiB pool (a pool slab lives while any slice of it does). */
function ownCopy(bytes: Uint8Array): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  copy.set(bytes);
  return copy;
}

/**
 * The preset dictionary every settled `HeldJson` is deflated against: the JSON of the first few HPAs settled in this
 * process (their keys, the controller's condition messages, the fleet's label and annotation keys are what every
 * other HPA repeats). Chosen once and never changed: each settled object needs it to be read.
 */
let dictionary: Buffer | null = null;

/** Up to this many HPAs' JSON make the dictionary (three to four: ~1.4 KB each, 221–271 bytes a settled HPA). */
export const DICTIONARY_SAMPLES = 4;

/**
 * Kept as its JSON's UTF-8 bytes outside V8's heap: an HPA (a hundred thousand of them in a large fleet). As parsed
 * objects they were a quarter of the live heap (1.13 KiB an HPA, strings shared) in some forty small objects each,
 * which every major collection marks and every change promoted to old space before it died; as bytes an HPA is one
 * small object on the heap and its ~1.4 KB beside it, and the object a watch event brought dies young. Encoding is
 * ~10 µs a change (`JSON.stringify`, one copy).
 *
 * A version that stood two minutes is `settle`d by the index's minute pass: deflated against a dictionary of a few
 * HPAs' JSON, ~1.4 KB → ~0.25 KB (~35 µs, once a version: a busy HPA's versions, replaced sooner, never are; deflating
 * every version as it is written would add ~35 µs to every watch event, a fifth of what applying one costs). Reading
 * one back is then ~50 µs instead of ~8.
 */
export class HeldJson implements HeldObject {
  /**
   * The bytes as a bare ArrayBuffer: a Buffer over it would be one more object on the heap for every HPA (~0.1 KiB in
   * `npm run bench:heap`); a view is made when they are read, and dies young.
   */
  private bytes: ArrayBuffer;
  private deflated = false;
  /** When this version was written here, in whole seconds after `epoch` (a small integer: no boxed number per HPA). */
  private readonly writtenSecond: number;
  readonly resourceVersion: string | undefined;

  constructor(
    object: KubeObject,
    /** When this version was written here (epoch ms). */
    writtenAt: number,
  ) {
    const json = JSON.stringify(object);
    this.bytes = new ArrayBuffer(Buffer.byteLength(json));
    Buffer.from(this.bytes).write(json, 0, 'utf8');
    this.writtenSecond = Math.floor((writtenAt - epoch) / 1000);
    this.resourceVersion = object.metadata.resourceVersion;
  }

  /** When this version was written here (epoch ms, to the second). */
  get writtenAt(): number {
    return epoch + this.writtenSecond * 1000;
  }

  object(): KubeObject {
    const view = Buffer.from(this.bytes);
    const bytes = this.deflated ? inflateRawSync(view, { dictionary: dictionary as Buffer }) : view;
    return JSON.parse(bytes.toString('utf8')) as KubeObject;
  }

  get settled(): boolean {
    return this.deflated;
  }

  /** Bytes held beside V8's heap. */
  get size(): number {
    return this.bytes.byteLength;
  }

  /**
   * Deflates the bytes against the dictionary (made first, from `samples`' bytes, if the process has none yet).
   * Once only; the object reads back the same.
   */
  settle(samples: readonly HeldJson[] = []): void {
    if (this.deflated) return;
    if (!dictionary) {
      const plain = [this, ...samples].filter((s) => !s.deflated).slice(0, DICTIONARY_SAMPLES);
      dictionary = ownCopy(Buffer.concat(plain.map((s) => new Uint8Array(s.bytes))));
    }
    const packed = deflateRawSync(Buffer.from(this.bytes), { dictionary });
    this.bytes = new ArrayBuffer(packed.length);
    new Uint8Array(this.bytes).set(packed);
    this.deflated = true;
  }
}
