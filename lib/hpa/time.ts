/**
 * Time parsing for the controller port, in epoch milliseconds. Go reads a missing or unparsable metav1.Time as
 * the zero time, so that is what these return. Parsing is pure, so bounded caches only save time: a sync sees
 * the same timestamp on hundreds of pods.
 */

/** The zero time.Time, which a missing timestamp reads as in Go. */
export const GO_ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

const CACHE_LIMIT = 4096;
const TIME_CACHE = new Map<string, number>();
const DURATION_CACHE = new Map<string, number | null>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/** An RFC 3339 time in ms; the Go zero time when it does not parse. */
export function parseTimeMs(text: string): number {
  const cached = TIME_CACHE.get(text);
  if (cached !== undefined) return cached;
  const ms = Date.parse(text);
  return remember(TIME_CACHE, text, Number.isNaN(ms) ? GO_ZERO_TIME_MS : ms);
}

const GO_DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** time.ParseDuration ("1m0s", "30s", "1.5h"), in milliseconds; null when it does not parse. */
export function parseGoDuration(text: string): number | null {
  const cached = DURATION_CACHE.get(text);
  if (cached !== undefined) return cached;
  if (text === '0') return remember(DURATION_CACHE, text, 0);
  const match = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(text);
  if (!match) return remember(DURATION_CACHE, text, null);
  let total = 0;
  for (const part of text.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * (GO_DURATION_UNITS[part[2] ?? ''] ?? 0);
  }
  return remember(DURATION_CACHE, text, match[1] === '-' ? -total : total);
}
