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

/** Its own allocation, not a slice of Node's shared 8 KiB pool (a pool slab lives while any slice of it does). */
function ownCopy(bytes: Uint8Array): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  copy.set(bytes);
  return copy;
}

/** This many HPAs' JSON make the dictionary (~1.4 KB each; an HPA deflated against four: ~250 bytes). */
export const DICTIONARY_SAMPLES = 4;

/**
 * The preset dictionary the `HeldJson`s of one index are deflated against: the JSON of the first few HPAs written
 * (their keys, the controller's condition messages, the fleet's label and annotation keys are what every other HPA
 * repeats). Made once, from the first `DICTIONARY_SAMPLES` HPAs, and never changed: each deflated object needs it to
 * be read. One per index (each `HeldJson` points at its index's), not one per process: two indexes in one process
 * (the tests') never share one.
 */
export class HeldDictionary {
  private current: Buffer | null = null;
  private samples: Uint8Array[] = [];

  /** The dictionary, once made. */
  get bytes(): Buffer | null {
    return this.current;
  }

  /** An HPA's JSON written before the dictionary was made: one of its samples, until there are enough. */
  offer(json: Uint8Array): void {
    this.samples.push(json);
    if (this.samples.length < DICTIONARY_SAMPLES) return;
    this.current = ownCopy(Buffer.concat(this.samples));
    this.samples = [];
  }
}

/**
 * Kept as its JSON's UTF-8 bytes outside V8's heap, deflated: an HPA (a hundred thousand of them in a large fleet). As
 * parsed objects they were a quarter of the live heap (1.13 KiB an HPA, strings shared) in some forty small objects
 * each, which every major collection marks and every change promoted to old space before it died; as bytes an HPA is
 * one small object on the heap and its bytes beside it, and the object a watch event brought dies young.
 *
 * Deflated against its index's dictionary, an HPA's ~1.4 KB of JSON is ~0.25 KB (`npm run bench:memory`: 1.43 →
 * 0.25 KiB an HPA). Writing one costs ~30 µs more than writing it plain (`bench:memory`: 15 → 48 µs with
 * `JSON.stringify`; zlib's set-up for each call and hashing the ~5 KB dictionary are most of it: Node offers no
 * deflater that can be reset and used again synchronously), reading one back ~8 µs of inflating more. The first
 * `DICTIONARY_SAMPLES` HPAs written, which make the dictionary, stay plain until their next version.
 *
 * Until 2026-11-28 only a version that had stood two minutes was deflated (by the index's minute pass), to spare the
 * CPU for versions about to be replaced. A live fleet's HPAs change status every controller pass or few, so none
 * ever were: the bench's 100,000 held 1.55 KiB each of plain JSON, their malloc'd bytes most of what the process held
 * outside V8's heap.
 */
export class HeldJson implements HeldObject {
  /**
   * The bytes as a bare ArrayBuffer: a Buffer over it would be one more object on the heap for every HPA (~0.1 KiB in
   * `npm run bench:heap`); a view is made when they are read, and dies young.
   */
  private readonly bytes: ArrayBuffer;
  private readonly packed: boolean;
  readonly resourceVersion: string | undefined;

  constructor(
    object: KubeObject,
    /** Its index's dictionary, which it is deflated against once it is made. */
    private readonly dictionary: HeldDictionary,
  ) {
    const json = Buffer.from(JSON.stringify(object), 'utf8');
    const against = dictionary.bytes;
    if (against) {
      const packed = deflateRawSync(json, { dictionary: against });
      this.bytes = new ArrayBuffer(packed.length);
      new Uint8Array(this.bytes).set(packed);
      this.packed = true;
    } else {
      this.bytes = new ArrayBuffer(json.length);
      new Uint8Array(this.bytes).set(json);
      this.packed = false;
      dictionary.offer(new Uint8Array(this.bytes));
    }
    this.resourceVersion = object.metadata.resourceVersion;
  }

  object(): KubeObject {
    const view = Buffer.from(this.bytes);
    const bytes = this.packed ? inflateRawSync(view, { dictionary: this.dictionary.bytes as Buffer }) : view;
    return JSON.parse(bytes.toString('utf8')) as KubeObject;
  }

  /** Whether its bytes are deflated (all but the dictionary's samples). */
  get deflated(): boolean {
    return this.packed;
  }

  /** Bytes held beside V8's heap. */
  get size(): number {
    return this.bytes.byteLength;
  }
}
