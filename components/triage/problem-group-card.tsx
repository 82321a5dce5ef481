'use client';

import type { ProblemGroup } from '@/lib/api';
import { apiPaths } from '../api/paths';
import type { FilterParams } from '../api/paths';
import { HealthBadge } from '../ui/health';
import { SinceText } from '../ui/time-zone';
import { autoscalerKindShort } from '../overview/kind-label';
import styles from './triage.module.css';
import { healthForSeverity } from '@/lib/triage/health-rules';

export interface ProblemGroupCardProps {
  group: ProblemGroup;
  expanded: boolean;
  /** Clusters of this group whose numbers are from their last sync. */
  staleClusters: readonly string[];
  listFilter: FilterParams;
  onToggle: () => void;
  children?: React.ReactNode;
}

const shownClusters = 4;

/** One cause in the queue: title, likely cause, count, clusters, oldest since; expands to its autoscalers. */
export function ProblemGroupCard({
  group,
  expanded,
  staleClusters,
  listFilter,
  onToggle,
  children,
}: ProblemGroupCardProps): React.JSX.Element {
  const health = healthForSeverity(group.worstSeverity);
  const regionId = `group-${group.key.replace(/[^a-zA-Z0-9-]/g, '-')}`;
  const plural = group.count === 1 ? '' : 's';
  return (
    <li className={`${styles.group} health-${health}`} data-testid="problem-group" data-group-key={group.key} data-expanded={expanded}>
      <div className={styles.groupHead}>
        <HealthBadge health={health} />
        <div className={styles.groupMain}>
          <h2 className={styles.groupTitle}>
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={expanded ? regionId : undefined}
              onClick={onToggle}
              data-nav-id={`group:${group.key}`}
              className={styles.groupToggle}
            >
              <span className={styles.chevron} aria-hidden="true">
                {expanded ? '▾' : '▸'}
              </span>
              {group.title}
            </button>
          </h2>
          <p className={styles.reasonLine}>
            <span className="mono">{group.reason}</span> <span className="muted">· {group.kind}</span>
          </p>
          {group.likelyCause ? (
            <p className={styles.cause} data-testid="likely-cause">
              <strong>Likely cause:</strong> {group.likelyCause}
            </p>
          ) : null}
          <p className={styles.hint}>
            <span className={styles.hintLabel}>Next step:</span> {group.hint}
          </p>
        </div>
        <dl className={styles.groupFacts}>
          <div>
            <dt>Autoscalers</dt>
            <dd className={styles.count}>
              <span className="num">{group.count}</span>{' '}
              <span className={styles.countKind}>
                {autoscalerKindShort[group.kind]}
                {plural}
              </span>
            </dd>
          </div>
          <div>
            <dt>{group.clusters.length === 1 ? 'Cluster' : `${group.clusters.length} clusters`}</dt>
            <dd className={styles.clusterChips}>
              {group.clusters.slice(0, shownClusters).map((c) => (
                <span key={c} className="chip" title={c}>
                  {c}
                </span>
              ))}
              {group.clusters.length > shownClusters ? <span className="muted">+{group.clusters.length - shownClusters}</span> : null}
              {staleClusters.length > 0 ? (
                <span className="chip" title={`From the last sync of ${staleClusters.join(', ')}`}>
                  stale
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Oldest</dt>
            <dd>
              <SinceText since={group.oldestSince} />
            </dd>
          </div>
        </dl>
      </div>
      {expanded ? (
        <div id={regionId} className={styles.groupBody}>
          <p className={styles.groupTools}>
            <span className="muted">
              {group.namespaces.length} namespace{group.namespaces.length === 1 ? '' : 's'}: {group.namespaces.slice(0, 8).join(', ')}
              {group.namespaces.length > 8 ? ', …' : ''}
            </span>
            <a
              className="button"
              href={apiPaths.autoscalersExport(listFilter, 'csv')}
              download
              title={`Every ${group.kind} with reason ${group.reason} in ${group.clusters.join(', ')}`}
            >
              Export group CSV
            </a>
            <a
              className="button"
              href={apiPaths.autoscalersExport(listFilter, 'json')}
              download
              title={`Every ${group.kind} with reason ${group.reason} in ${group.clusters.join(', ')}`}
            >
              Export group JSON
            </a>
          </p>
          {children}
        </div>
      ) : null}
    </li>
  );
}
