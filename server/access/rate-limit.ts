import 'server-only';

/**
 * A fixed-window counter per key (a client address): at most `limit` hits per `windowMs`. Kept small — the
 * oldest keys go first past `maxKeys` — because it guards the sign-in routes, not the whole API.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** True when this hit is allowed. */
  hit(key: string, now: number): boolean {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      this.windows.delete(key);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
    }
    w.count += 1;
    return w.count <= this.limit;
  }
}
