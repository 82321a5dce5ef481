import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Problem } from '@/lib/api/autoscaler';
import { CONDITION_MEANINGS } from '@/lib/triage/condition-meaning';
import { toReasonTable } from '@/lib/triage/reason-table';
import { HEALTH_RULES, healthForSeverity, healthOfProblems, severityForHealth, sortProblems } from '@/lib/triage/health-rules';

const doc = readFileSync(path.resolve(__dirname, '../../docs/health.md'), 'utf8');

function problem(code: string, severity: Problem['severity']): Problem {
  return { code, severity, title: code, message: code, since: null, hint: 'x' };
}

describe('healthOfProblems: the worst wins, failing > unknown > degraded > ok', () => {
  it.each([
    [[], 'ok'],
    [['info'], 'ok'],
    [['warning', 'info'], 'degraded'],
    [['warning', 'unknown'], 'unknown'],
    [['unknown', 'error', 'warning'], 'failing'],
  ] as const)('%j → %s', (severities, health) => {
    expect(healthOfProblems(severities.map((s, i) => problem(`P${i}`, s)))).toBe(health);
  });

  it('severity and health map both ways', () => {
    for (const s of ['error', 'unknown', 'warning', 'info'] as const) expect(severityForHealth(healthForSeverity(s))).toBe(s);
  });

  it('sortProblems puts the worst first and keeps the rules’ order otherwise', () => {
    const sorted = sortProblems([problem('A', 'warning'), problem('B', 'error'), problem('C', 'warning'), problem('D', 'unknown')]);
    expect(sorted.map((p) => p.code)).toEqual(['B', 'D', 'A', 'C']);
  });
});

describe('docs/health.md says what the code does', () => {
  it('names every health rule', () => {
    for (const rule of HEALTH_RULES) expect(doc, rule.id).toContain(`**${rule.id}**`);
  });

  it('has one table row per meaning row, with the same condition, status, reason and meaning', () => {
    const rows = doc.split('\n').filter((l) => /^\| (all|HPA, FederatedHPA|MachineAutoscaler) \|/.test(l));
    expect(rows).toHaveLength(CONDITION_MEANINGS.length);
    CONDITION_MEANINGS.forEach((m, i) => {
      const cells = (rows[i] ?? '').split('|').map((c) => c.trim());
      expect(cells[2], `row ${i}`).toBe(m.type === '*' ? 'any' : m.type);
      expect(cells[3], `row ${i}`).toBe(m.status === '*' ? 'any' : m.status);
      if (m.reason !== '*') expect(cells[4], `row ${i}`).toBe(m.reason);
      expect(cells[5]?.startsWith(m.meaning), `row ${i}`).toBe(true);
      if (m.exception) expect(cells[5], `row ${i}`).toContain(`**${m.exception.meaning}**`);
    });
  });

  it('carries the reason table generated from the registry (npm run docs:health rewrites it)', () => {
    const generated = /<!-- reasons:begin -->\n([\s\S]*?)\n<!-- reasons:end -->/.exec(doc)?.[1];
    expect(generated).toBe(toReasonTable());
  });

  it('states the 15-minute mismatch boundary and the outage minimum', () => {
    expect(doc).toContain('**15 minutes or more**');
    expect(doc).toContain('at least 2 of them');
  });
});
