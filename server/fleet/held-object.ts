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
 * The preset dictionary the settled `HeldJson`s of one index are deflated against: the JSON of the first few HPAs
 * settled (their keys, the controller's condition messages, the fleet's label and annotation keys are what every
 * other HPA repeats). Chosen once and never changed: each settled object needs it to be read. One per index (each
 * `HeldJson` points at its index's), not one per process: two indexes in one process (the tests') never share one.
 */
export class HeldDictionary {
  bytes: Buffer | null = null;
}

/** Up to this many HPAs' JSON make the dictionary (three to four: ~1.4 KB each, 221–271 bytes a settled HPA). */
export const DICTIONARY_SAMPLES = 4;

/**
 * zlib's shape for a held HPA: an 8 KiB window (`windowBits` 13) holds the dictionary (~5 KB) and an HPA (~1.4 KB), and
 * `memLevel` 4 a hash table to match; zlib's default (a 32 KiB window, `memLevel` 8) gave the same bytes here but
 * allocated and cleared four times the memory per call: 82 µs to deflate an HPA and 26 µs to inflate it, against 42
 * and 8 µs in this shape (measured on 2,000 variants of the prod-us fixture's HPAs). Inflating needs the
 * same window (or a larger one) as deflating: both read it from here.
 */
const ZLIB_SHAPE = { windowBits: 13, memLevel: 4 } as const;

function deflated(bytes: Uint8Array, against: Buffer): ArrayBuffer {
  const packed = deflateRawSync(bytes, { ...ZLIB_SHAPE, dictionary: against });
  const own = new ArrayBuffer(packed.length);
  new Uint8Array(own).set(packed);
  return own;
}

/**
 * Kept as its JSON's UTF-8 bytes outside V8's heap: an HPA (a hundred thousand of them in a large fleet). As parsed
 * objects they were a quarter of the live heap (1.13 KiB an HPA, strings shared) in some forty small objects each,
 * which every major collection marks and every change promoted to old space before it died; as bytes an HPA is one
 * small object on the heap and its ~1.4 KB beside it, and the object a watch event brought dies young. Encoding is
 * ~10 µs a change (`JSON.stringify`, one copy).
 *
 * Deflated against a dictionary of a few HPAs' JSON, ~1.4 KB → ~0.25 KB. The dictionary is made by the first `settle`
 * (the index's minute pass settles the versions that have stood two minutes, so the first one comes about two minutes
 * after a start, once a cold start's lists are in: deflating those 100,000 HPAs as they arrived would add ~4 s of CPU
 * to a sync); from then on every version is deflated as it is written (~40 µs more a watch event). Deflating only the
 * versions that stood two minutes, as before, left a live fleet's HPAs all plain: a busy HPA's status changes every
 * controller pass or few, and the bench's 100,000 held 1.55 KiB each of JSON with none deflated. Reading one back is
 * ~8 µs of inflating more.
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
    /** Its index's dictionary: once it has bytes, this version is deflated as it is written. */
    private readonly dictionary: HeldDictionary,
  ) {
    const json = JSON.stringify(object);
    if (dictionary.bytes) {
      this.bytes = deflated(Buffer.from(json, 'utf8'), dictionary.bytes);
      this.deflated = true;
    } else {
      this.bytes = new ArrayBuffer(Buffer.byteLength(json));
      Buffer.from(this.bytes).write(json, 0, 'utf8');
    }
    this.writtenSecond = Math.floor((writtenAt - epoch) / 1000);
    this.resourceVersion = object.metadata.resourceVersion;
  }

  /** When this version was written here (epoch ms, to the second). */
  get writtenAt(): number {
    return epoch + this.writtenSecond * 1000;
  }

  object(): KubeObject {
    const view = Buffer.from(this.bytes);
    const bytes = this.deflated ? inflateRawSync(view, { ...ZLIB_SHAPE, dictionary: this.dictionary.bytes as Buffer }) : view;
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
   * Deflates the bytes against the dictionary (made first, from `samples`' bytes, if its index has none yet).
   * Once only; the object reads back the same.
   */
  settle(samples: readonly HeldJson[] = []): void {
    if (this.deflated) return;
    if (!this.dictionary.bytes) {
      const plain = [this, ...samples].filter((s) => !s.deflated).slice(0, DICTIONARY_SAMPLES);
      this.dictionary.bytes = ownCopy(Buffer.concat(plain.map((s) => new Uint8Array(s.bytes))));
    }
    this.bytes = deflated(new Uint8Array(this.bytes), this.dictionary.bytes);
    this.deflated = true;
  }
}
