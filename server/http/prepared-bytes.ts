import 'server-only';
import { promisify } from 'node:util';
import { constants, gunzipSync, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/**
 * A prepared answer's bytes (a list page, a triage): held plain until their gzip is made, then as the gzip alone.
 *
 * A shared answer (shared-answers.ts) lives up to 250 ms, past a scavenge or two, so its bytes' ArrayBuffer ends in
 * V8's old generation, which only a full collection frees, and V8 starts one each time such memory grows by its
 * external limit. A list page of whole DTOs is ~180 KiB plain and ~11 KiB gzipped: with twenty clients on distinct
 * pages the plain bytes set off a full collection every ~0.5 s (in a scratch loop of 8,000 pages, 19 full collections
 * with the plain bytes held 250 ms, 4 with only the gzip held, 1 with nothing held; docs/performance.md). A client
 * that takes no gzip, reading an answer whose gzip was made, gets the bytes inflated again (~0.2 ms a page).
 */
export class PreparedBytes {
  private plain: Buffer<ArrayBuffer> | null;
  private zipped: Buffer | null = null;
  private zipping: Promise<Buffer> | null = null;
  /** The plain bytes' length. */
  readonly length: number;

  constructor(plain: Buffer<ArrayBuffer>) {
    this.plain = plain;
    this.length = plain.length;
  }

  /** The plain bytes: as made, or inflated from their gzip once only that is kept. */
  bytes(): Buffer<ArrayBuffer> {
    if (this.plain) return this.plain;
    return gunzipSync(this.zipped as Buffer);
  }

  /** Their gzip, made once (the compression runs on libuv's thread pool); from then on only the gzip is kept. */
  gzip(): Promise<Buffer> {
    if (this.zipped) return Promise.resolve(this.zipped);
    this.zipping ??= gzipAsync(this.plain as Buffer, { level: constants.Z_BEST_SPEED }).then(
      (zipped) => {
        this.zipped = zipped;
        this.plain = null;
        this.zipping = null;
        return zipped;
      },
      (error: unknown) => {
        // Not kept: the next request tries again.
        this.zipping = null;
        throw error;
      },
    );
    return this.zipping;
  }
}
