import { inflateRawSync } from 'node:zlib';
import type { PackedResourceVersion } from '@/lib/k8s/resource-version';
import { packResourceVersion, resourceVersionText } from '@/lib/k8s/resource-version';
import type { KubeObject } from '@/lib/k8s/types';
import type { ArenaHolder, Slab } from './held-arena';
import { HeldArena } from './held-arena';
import { deflateHere, HeldCompressor } from './held-compressor';
import type { Deflatable } from './held-compressor';

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

/** `HeldJson`'s flags. */
const WAITING = 1;
const RETIRED = 2;
const FLAGS = WAITING | RETIRED;
/** Where `HeldJson.slotAndFlags` keeps the slot. */
const SLOT_SHIFT = 2;
/** What a `HeldJson` holds for the moment between its making and its bytes' placing in the arena. */
const NO_BYTES = new ArrayBuffer(0);

/** This many HPAs' JSON make the dictionary (~1.4 KB each; an HPA deflated against four: ~250 bytes). */
export const DICTIONARY_SAMPLES = 4;

/**
 * The preset dictionary the `HeldJson`s of one index are deflated against: the JSON of the first few HPAs written
 * (their keys, the controller's condition messages, the fleet's label and annotation keys are what every other HPA
 * repeats). Made once, from the first `DICTIONARY_SAMPLES` HPAs, and never changed: each deflated object needs it to
 * be read. One per index (each `HeldJson` points at its index's), not one per process: two indexes in one process
 * (the tests') never share one.
 *
 * With `thread`, the HPAs written once it is made are deflated by a thread of its own (`HeldCompressor`), each kept
 * as its plain bytes until the deflated ones come back; without, as they are written.
 */
export class HeldDictionary {
  private current: Buffer | null = null;
  /** Where the HPAs deflated against it keep their bytes. */
  readonly arena: HeldArena;
  private samples: Uint8Array[] = [];
  private compressorOf: HeldCompressor | null = null;
  /** Whether the compressor keeps what it is given until `endDeferral` (`HeldCompressor`'s deferral). */
  private deferring = false;

  constructor(
    private readonly options: {
      thread?: boolean;
      /** Told when a held HPA's deflated bytes come from the thread, replacing `plainSize` plain ones (the index counts what it holds). */
      onDeflated?: (held: HeldJson, plainSize: number) => void;
      onThreadError?: (error: Error) => void;
      /** The arena's slab size (`SLAB_BYTES`; the tests' are small). */
      slabBytes?: number;
      /** `MAX_DEFERRED` (the tests' is small). */
      maxDeferred?: number;
    } = {},
  ) {
    this.arena = new HeldArena(options.slabBytes);
  }

  /** The dictionary, once made. */
  get bytes(): Buffer | null {
    return this.current;
  }

  get compressor(): HeldCompressor | null {
    return this.compressorOf;
  }

  /** An HPA's JSON written before the dictionary was made: one of its samples, until there are enough. */
  offer(json: Uint8Array): void {
    this.samples.push(json);
    if (this.samples.length < DICTIONARY_SAMPLES) return;
    this.current = ownCopy(Buffer.concat(this.samples));
    this.samples = [];
    if (this.options.thread)
      this.compressorOf = new HeldCompressor(this.current, this.options.onThreadError, {
        deferring: this.deferring,
        ...(this.options.maxDeferred ? { maxDeferred: this.options.maxDeferred } : {}),
      });
  }

  /** A cold start's HPAs are deflated once `endDeferral` says the index is whole (with a thread; up to `MAX_DEFERRED`). */
  deferDeflating(): void {
    this.deferring = true;
  }

  endDeferral(): void {
    this.deferring = false;
    this.compressorOf?.endDeferral();
  }

  /** `held`'s bytes came from the thread, in place of `plainSize` plain ones. */
  deflated(held: HeldJson, plainSize: number): void {
    this.options.onDeflated?.(held, plainSize);
  }

  /** Ends the compressor's thread, if there is one (what it had not answered stays plain). */
  stop(): Promise<void> {
    return this.compressorOf?.stop() ?? Promise.resolve();
  }
}

/**
 * Kept as its JSON's UTF-8 bytes outside V8's heap, deflated: an HPA (a hundred thousand of them in a large fleet). As
 * parsed objects they were a quarter of the live heap (1.13 KiB an HPA, strings shared) in some forty small objects
 * each, which every major collection marks and every change promoted to old space before it died; as bytes an HPA is
 * one small object on the heap and its bytes beside it, and the object a watch event brought dies young.
 *
 * Deflated against its index's dictionary, an HPA's ~1.4 KB of JSON is ~0.25 KB (`npm run bench:memory`: 1.43 →
 * 0.25 KiB an HPA); the index has a thread do it (`HeldCompressor`), and until the bytes come back (a turn or two of
 * the event loop) the version is held as its plain JSON bytes. Reading a deflated one back is ~8 µs of inflating more than
 * parsing. The first `DICTIONARY_SAMPLES` HPAs written, which make the dictionary, stay plain until their next version.
 * Deflated bytes are packed into the dictionary's arena (`HeldArena`), not an ArrayBuffer each.
 *
 * Deflated from the first few HPAs on, not later: bytes malloc'd plain and freed once deflated leave the allocator's
 * memory in holes it does not give back (a test of 100,000 ArrayBuffers of 1.4 KB replaced by 0.25 KB ones: RSS 224 →
 * 283 MiB, against 105 MiB for 0.25 KB ones from the start). Until 2026-11-28 only a version that had stood two
 * minutes was deflated (by the index's minute pass), and in a live fleet, whose HPAs change status every controller
 * pass or few, none ever was: the bench's 100,000 held 1.55 KiB each of plain JSON.
 */
export class HeldJson implements HeldObject, Deflatable, ArenaHolder {
  /**
   * The plain JSON bytes while the thread deflates them (and for the dictionary's samples), as a bare ArrayBuffer: a
   * Buffer over it would be one more object on the heap; a view is made when they are read, and dies young. Once
   * deflated, the slab of the dictionary's arena (`HeldArena`) they are in, `length` bytes from `at`. One field for
   * both, and one for its place in the slab and its flags: a hundred thousand of these are kept, 8 bytes a field.
   */
  private bytes: ArrayBuffer | Slab;
  at = 0;
  length = 0;
  /**
   * Its place among the slab's holders (a slab of 1 MiB has fewer than 2^20), shifted past its flags: `WAITING` (handed
   * to the compressor thread, which has yet to answer), `RETIRED` (no longer the version its index holds).
   */
  private slotAndFlags = 0;
  /** Kept as a number when it is one (`packResourceVersion`), as the informer's key keeps it: no string for either. */
  private readonly version: PackedResourceVersion;

  constructor(
    object: KubeObject,
    /** Its index's dictionary, which it is deflated against once it is made. */
    private readonly dictionary: HeldDictionary,
  ) {
    const json = Buffer.from(JSON.stringify(object), 'utf8');
    const against = dictionary.bytes;
    const compressor = dictionary.compressor;
    this.bytes = NO_BYTES;
    if (against && !compressor?.accepts) dictionary.arena.put(this, deflateHere(json, against));
    else {
      this.bytes = new ArrayBuffer(json.length);
      const plain = new Uint8Array(this.bytes);
      plain.set(json);
      if (!against) dictionary.offer(plain);
      else if (compressor) {
        this.slotAndFlags |= WAITING;
        compressor.deflate(this, plain);
      }
    }
    this.version = packResourceVersion(object.metadata.resourceVersion);
  }

  get resourceVersion(): string | undefined {
    return resourceVersionText(this.version);
  }

  /** Its bytes now at `at` in `slab` (the arena, as they are first packed or when their slab is emptied). */
  movedTo(slab: Slab, at: number, length: number, slot: number): void {
    this.bytes = slab;
    this.at = at;
    this.length = length;
    this.slotAndFlags = (slot << SLOT_SHIFT) | (this.slotAndFlags & FLAGS);
  }

  /** Its deflated bytes, from the thread (a view the arena copies from). A version already retired keeps its plain bytes. */
  deflatedTo(bytes: Uint8Array): void {
    if (!(this.slotAndFlags & WAITING)) return;
    this.slotAndFlags &= ~WAITING;
    if (this.slotAndFlags & RETIRED || !(this.bytes instanceof ArrayBuffer)) return;
    const plainSize = this.bytes.byteLength;
    this.dictionary.arena.put(this, bytes);
    this.dictionary.deflated(this, plainSize);
  }

  /** No longer the version its index holds: its place in the arena is let go (it still reads the same while it is kept). */
  retire(): void {
    if (this.slotAndFlags & RETIRED) return;
    this.slotAndFlags |= RETIRED;
    if (!(this.bytes instanceof ArrayBuffer)) this.dictionary.arena.letGo(this.bytes, this.slotAndFlags >>> SLOT_SHIFT, this.length);
  }

  get retired(): boolean {
    return (this.slotAndFlags & RETIRED) !== 0;
  }

  object(): KubeObject {
    const held = this.bytes;
    const bytes =
      held instanceof ArrayBuffer
        ? Buffer.from(held)
        : inflateRawSync(held.bytes.subarray(this.at, this.at + this.length), { dictionary: this.dictionary.bytes as Buffer });
    return JSON.parse(bytes.toString('utf8')) as KubeObject;
  }

  /** Whether its bytes are deflated (all but the dictionary's samples, once the thread has answered). */
  get deflated(): boolean {
    return !(this.bytes instanceof ArrayBuffer);
  }

  /** Whether the thread has yet to answer for it (its bytes are plain JSON meanwhile). */
  get waiting(): boolean {
    return (this.slotAndFlags & WAITING) !== 0;
  }

  /** Bytes held beside V8's heap (its share of a slab, once deflated). */
  get size(): number {
    return this.bytes instanceof ArrayBuffer ? this.bytes.byteLength : this.length;
  }
}
