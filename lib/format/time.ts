/** Time formatting for the UI, pure: `now` is an argument. */

/** "3 h 12 min", "2 d 4 h", "45 s": the two largest units, for "for …" durations in lists. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return h ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return m < 10 && sec ? `${m} min ${sec} s` : `${m} min`;
  return `${sec} s`;
}

/** "for 3 h 12 min" since an RFC 3339 time, or null when unknown. */
export function formatSince(since: string | null | undefined, now: number): string | null {
  if (!since) return null;
  const t = Date.parse(since);
  return Number.isNaN(t) ? null : formatDuration(now - t);
}

/** "14:02 CET" (or with the date when not today), in the given IANA zone ("UTC" for the UTC toggle). */
export function formatClock(iso: string | null | undefined, now: number, timeZone?: string): string {
  if (!iso) return '—';
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return '—';
  const sameDay = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const showDate = sameDay.format(t) !== sameDay.format(new Date(now));
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    ...(showDate ? { month: 'short', day: 'numeric' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(t);
}

// Building an Intl.DateTimeFormat costs far more than formatting with one (about 1 ms in a browser), and a
// virtualized list formats a tooltip per row as it scrolls: one formatter per zone, reused.
const timestampFormats = new Map<string, Intl.DateTimeFormat>();

function timestampFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = timestampFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
      timeZoneName: 'short',
    });
    timestampFormats.set(key, format);
  }
  return format;
}

/** Full timestamp for tooltips: "2026-11-22 14:02:11 CET". */
export function formatTimestamp(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return '—';
  const parts = timestampFormat(timeZone).formatToParts(t);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')} ${get('timeZoneName')}`;
}
