import type { AutoscalerKind } from '@/lib/api/autoscaler';
import { findMeaningRow } from '@/lib/triage/condition-meaning';
import { HEALTH_RULES } from '@/lib/triage/health-rules';
import { CONDITIONS, REASONS, UNKNOWN_STATUS_MEANING } from '@/lib/triage/reasons';

/** A table cell: pipes escaped so a note cannot split the row. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function meaningOf(code: string): string {
  const r = REASONS[code];
  if (code === 'ConditionUnknown') return UNKNOWN_STATUS_MEANING.health;
  if (!r?.condition) {
    const rule = HEALTH_RULES.find((h) => h.code === code);
    return rule && rule.health !== 'by-meaning' && rule.health !== 'by-severity' ? rule.health : 'by severity';
  }
  const kind = (CONDITIONS.find((c) => c.type === r.condition?.type)?.kinds[0] ?? 'HorizontalPodAutoscaler') satisfies AutoscalerKind;
  const row = findMeaningRow(kind, { type: r.condition.type, status: r.condition.status, reason: code });
  if (!row) return 'unknown';
  return row.exception ? `${row.meaning} → **${row.exception.meaning}** (${row.exception.fact})` : row.meaning;
}

/**
 * The reason registry as a markdown table, one row per code in registry order: docs/health.md carries it
 * between `<!-- reasons:begin -->` and `<!-- reasons:end -->`, and a test fails when the two differ.
 */
export function toReasonTable(): string {
  const rows = Object.entries(REASONS).map(([code, r]) =>
    [
      `\`${code}\``,
      r.condition ? `${r.condition.type}=${r.condition.status}` : '—',
      meaningOf(code),
      r.earlyExit ? 'yes' : '',
      r.metricsApi ?? '',
      cell(r.title),
      cell(r.source),
    ].join(' | '),
  );
  return [
    '| reason | condition | meaning | early exit | metrics API | title | source |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
  ].join('\n');
}
