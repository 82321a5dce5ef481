import 'server-only';
import type { Autoscaler, AutoscalerFilter, AutoscalerSort, Health } from '@/lib/api';

const healthRank: Record<Health, number> = { failing: 0, degraded: 1, unknown: 2, ok: 3 };

/** The earliest `since` of the autoscaler's problems: how long it has been broken. */
export function problemSince(a: Autoscaler): string | null {
  let oldest: string | null = null;
  for (const p of a.problems) if (p.since && (!oldest || p.since < oldest)) oldest = p.since;
  return oldest;
}

export function matchesFilter(a: Autoscaler, f: AutoscalerFilter): boolean {
  if (f.kind?.length && !f.kind.includes(a.kind)) return false;
  if (f.cluster?.length && !f.cluster.includes(a.cluster)) return false;
  if (f.namespace?.length && !f.namespace.includes(a.namespace)) return false;
  if (f.health?.length && !f.health.includes(a.health)) return false;
  if (f.reason?.length && !f.reason.some((r) => a.problems.some((p) => p.code === r) || a.conditions.some((c) => c.reason === r))) return false;
  if (f.q) {
    const q = f.q.toLowerCase();
    const hay = [a.name, a.namespace, a.cluster, a.kind, a.target.name, ...a.problems.map((p) => `${p.code} ${p.title}`)].join(' ').toLowerCase();
    if (!q.split(/\s+/).filter(Boolean).every((term) => hay.includes(term))) return false;
  }
  return true;
}

const byString = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Sorts (a new array); every order ends with the id so pages are stable. Sort keys are computed once per
 * item, not per comparison: a 100,000-item sort makes ~1.7 million comparisons.
 */
export function sortAutoscalers(items: Autoscaler[], sort: AutoscalerSort, order: 'asc' | 'desc' | undefined): Autoscaler[] {
  const keyed = items.map((a) => ({ a, since: problemSince(a) ?? '~' }));
  type K = (typeof keyed)[number];
  const compare: Record<AutoscalerSort, (x: K, y: K) => number> = {
    // Worst first, and among equals the longest broken first: "Ready=False for 2 d" above "for 3 min".
    health: (x, y) => healthRank[x.a.health] - healthRank[y.a.health] || byString(x.since, y.since),
    since: (x, y) => byString(x.since, y.since),
    name: (x, y) => byString(x.a.name, y.a.name),
    namespace: (x, y) => byString(x.a.namespace, y.a.namespace) || byString(x.a.name, y.a.name),
    cluster: (x, y) => byString(x.a.cluster, y.a.cluster) || byString(x.a.namespace, y.a.namespace) || byString(x.a.name, y.a.name),
    kind: (x, y) => byString(x.a.kind, y.a.kind),
    replicas: (x, y) => (y.a.currentReplicas ?? -1) - (x.a.currentReplicas ?? -1),
  };
  const direction = order === 'desc' ? -1 : 1;
  const by = compare[sort];
  keyed.sort((x, y) => direction * (by(x, y) || byString(x.a.id, y.a.id)));
  return keyed.map((k) => k.a);
}

export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/** A cursor this server did not make is a 400, not a silent first page. */
export function decodeCursor(cursor: string): number | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    return typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0 ? parsed.o : null;
  } catch {
    return null;
  }
}

const csvColumns = ['cluster', 'kind', 'namespace', 'name', 'health', 'problems', 'since', 'currentReplicas', 'desiredReplicas', 'minReplicas', 'maxReplicas', 'target', 'stale'] as const;

function csvCell(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  // Quote per RFC 4180; a leading =,+,-,@ is prefixed so a spreadsheet does not run it as a formula.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(items: readonly Autoscaler[]): string {
  const rows = items.map((a) =>
    [a.cluster, a.kind, a.namespace, a.name, a.health, a.problems.map((p) => p.code).join(';'), problemSince(a), a.currentReplicas, a.desiredReplicas, a.minReplicas, a.maxReplicas, `${a.target.kind}/${a.target.name}`, a.stale]
      .map(csvCell)
      .join(','),
  );
  return `${csvColumns.join(',')}\n${rows.join('\n')}${rows.length ? '\n' : ''}`;
}
