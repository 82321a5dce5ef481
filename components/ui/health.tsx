import type { AutoscalerCondition, Health } from '@/lib/api';

/** The one mapping from meaning to colour token (docs/ui.md): colour means health, never True/False. */
export const healthColor: Record<Health, string> = {
  ok: 'var(--ok)',
  degraded: 'var(--warn)',
  failing: 'var(--bad)',
  unknown: 'var(--unknown)',
};

export const healthBackground: Record<Health, string> = {
  ok: 'var(--ok-bg)',
  degraded: 'var(--warn-bg)',
  failing: 'var(--bad-bg)',
  unknown: 'var(--unknown-bg)',
};

export const healthLabel: Record<Health, string> = { ok: 'OK', degraded: 'Degraded', failing: 'Failing', unknown: 'Unknown' };

/** A dot coloured by meaning, with the word beside it (colour-blind users, screenshots in tickets). */
export function HealthBadge({ health, compact = false }: { health: Health; compact?: boolean }): React.JSX.Element {
  return (
    <span className={`health-badge health-${health}`} data-health={health}>
      <span className="health-dot" aria-hidden="true" />
      {compact ? <span className="visually-hidden">{healthLabel[health]}</span> : healthLabel[health]}
    </span>
  );
}

/** `Type=Status Reason`, coloured by what it means. */
export function ConditionChip({
  condition,
}: {
  condition: Pick<AutoscalerCondition, 'type' | 'status' | 'reason' | 'meaning' | 'message'>;
}): React.JSX.Element {
  return (
    <span className={`condition-chip health-${condition.meaning}`} title={condition.message ?? undefined} data-health={condition.meaning}>
      <span className="health-dot" aria-hidden="true" />
      <span className="mono">
        {condition.type}={condition.status}
      </span>
      {condition.reason ? <span className="condition-reason">{condition.reason}</span> : null}
    </span>
  );
}
