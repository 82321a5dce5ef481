import type { Health, ProblemSeverity } from '@/lib/api';

/** A group's worst severity as the health colour it is drawn in (docs/ui.md: colour means health). */
export const severityHealth: Record<ProblemSeverity, Health> = {
  error: 'failing',
  warning: 'degraded',
  unknown: 'unknown',
  info: 'ok',
};
