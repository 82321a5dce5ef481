'use client';

import { Link } from '../ui/link';
import type { AutoscalerKind, ClusterState, ClusterSummary, Health } from '@/lib/api';
import { ClockText, SinceText } from '../ui/time-zone';
import { triageHref } from '../triage/triage-href';
import { HealthBar } from './health-bar';
import { autoscalerKindShort, clusterKindLabel } from './kind-label';
import styles from './overview.module.css';

const stateHealth: Record<ClusterState, Health> = {
  synced: 'ok',
  syncing: 'unknown',
  degraded: 'degraded',
  unreachable: 'failing',
  forbidden: 'failing',
};
const stateWord: Record<ClusterState, string> = {
  synced: 'Synced',
  syncing: 'Syncing',
  degraded: 'Degraded',
  unreachable: 'Unreachable',
  forbidden: 'Forbidden',
};
const kinds: readonly AutoscalerKind[] = ['HorizontalPodAutoscaler', 'MachineAutoscaler', 'FederatedHPA'];

function isStale(c: ClusterSummary): boolean {
  return c.state === 'unreachable' || c.state === 'forbidden';
}

function StateBadge({ state }: { state: ClusterState }): React.JSX.Element {
  return (
    <span className={`health-badge health-${stateHealth[state]}`} data-testid="cluster-state">
      <span className="health-dot" aria-hidden="true" />
      {stateWord[state]}
    </span>
  );
}

/** "Synced 07:33 UTC", or for a cluster that is not answering: since when, and how old its numbers are. */
function SyncLine({ cluster }: { cluster: ClusterSummary }): React.JSX.Element {
  if (cluster.state === 'unreachable' || cluster.state === 'forbidden') {
    return (
      <p className={styles.syncLine}>
        <StateBadge state={cluster.state} /> <SinceText since={cluster.since} /> ·{' '}
        <span className="chip" data-testid="stale-chip">
          stale
        </span>{' '}
        {cluster.lastSyncAt ? (
          <>
            numbers from <ClockText at={cluster.lastSyncAt} />
          </>
        ) : (
          'never synced: nothing known'
        )}
      </p>
    );
  }
  if (cluster.state === 'degraded') {
    // Answering, with errors: the numbers are current, so no stale chip; the error rate says how bad.
    return (
      <p className={styles.syncLine}>
        <StateBadge state={cluster.state} />
        <span className="muted" data-testid="cluster-error-rate">
          {formatErrorRate(cluster.errorRate)} of requests failed in the last minute · current
        </span>
      </p>
    );
  }
  return (
    <p className={styles.syncLine}>
      <StateBadge state={cluster.state} />
      <span className="muted">
        {cluster.state === 'syncing' ? (
          'first sync in progress'
        ) : (
          <>
            last sync <ClockText at={cluster.lastSyncAt} />
          </>
        )}
      </span>
    </p>
  );
}

function formatErrorRate(rate: number): string {
  const percent = rate * 100;
  return `${percent > 0 && percent < 1 ? '<1' : Math.round(percent)}%`;
}

function KindCounts({ cluster }: { cluster: ClusterSummary }): React.JSX.Element {
  const present = kinds.filter((k) => cluster.counts.byKind[k] > 0);
  if (present.length === 0) return <></>;
  return (
    <ul className={styles.kindCounts} aria-label="Autoscalers by kind">
      {present.map((k) => (
        <li key={k} title={k}>
          <span className="num">{cluster.counts.byKind[k]}</span> {autoscalerKindShort[k]}
        </li>
      ))}
    </ul>
  );
}

function MemberRow({ cluster }: { cluster: ClusterSummary }): React.JSX.Element {
  const short =
    cluster.parent && cluster.name.startsWith(`${cluster.parent}/`) ? cluster.name.slice(cluster.parent.length + 1) : cluster.name;
  return (
    <li
      className={isStale(cluster) ? `${styles.member} ${styles.stale}` : styles.member}
      data-testid="cluster-member"
      data-cluster={cluster.name}
    >
      <div className={styles.memberHead}>
        <Link href={triageHref({ cluster: cluster.name })} title={cluster.name} className={styles.memberName}>
          {short}
        </Link>
        <span className={styles.memberState}>
          {isStale(cluster) ? <span className="chip">stale</span> : null}
          <StateBadge state={cluster.state} />
        </span>
      </div>
      {cluster.state === 'degraded' ? (
        <p className="muted" data-testid="cluster-error-rate">
          {formatErrorRate(cluster.errorRate)} of requests failed in the last minute
        </p>
      ) : null}
      {cluster.error ? (
        <p className={styles.error}>{cluster.state === 'degraded' ? `last error: ${cluster.error}` : cluster.error}</p>
      ) : null}
      <HealthBar counts={cluster.counts.byHealth} stale={isStale(cluster)} />
    </li>
  );
}

function ClusterTile({ cluster, members }: { cluster: ClusterSummary; members: readonly ClusterSummary[] }): React.JSX.Element {
  const stale = isStale(cluster);
  const headingId = `cluster-${cluster.name.replace(/[^a-zA-Z0-9-]/g, '-')}`;
  return (
    <article
      className={stale ? `${styles.tile} ${styles.tileStale}` : styles.tile}
      aria-labelledby={headingId}
      data-testid="cluster-tile"
      data-cluster={cluster.name}
      data-state={cluster.state}
    >
      <header className={styles.tileHead}>
        <h3 id={headingId} className={styles.tileName}>
          <Link href={triageHref({ cluster: cluster.name })}>{cluster.name}</Link>
        </h3>
        <span className="chip">{clusterKindLabel[cluster.kind]}</span>
      </header>
      <SyncLine cluster={cluster} />
      {cluster.error ? (
        <p className={styles.error}>{cluster.state === 'degraded' ? `last error: ${cluster.error}` : cluster.error}</p>
      ) : null}
      {cluster.forbiddenResources.length > 0 ? (
        <p className={styles.error}>
          Not allowed to read: <span className="mono">{cluster.forbiddenResources.join(', ')}</span>
        </p>
      ) : null}
      <div className={styles.tileCounts}>
        <p className={styles.total}>
          <Link href={`/autoscalers?cluster=${encodeURIComponent(cluster.name)}`} title={`Every autoscaler of ${cluster.name}`}>
            <span className="num">{cluster.counts.total}</span> autoscalers
          </Link>
          {cluster.kubernetesVersion ? <span className="muted"> · {cluster.kubernetesVersion}</span> : null}
        </p>
        <KindCounts cluster={cluster} />
      </div>
      <HealthBar counts={cluster.counts.byHealth} stale={stale} />
      {members.length > 0 ? (
        <div className={styles.members}>
          <h4 className={styles.membersTitle}>Member clusters ({members.length})</h4>
          <ul className={styles.memberList}>
            {members.map((m) => (
              <MemberRow key={m.name} cluster={m} />
            ))}
          </ul>
        </div>
      ) : null}
    </article>
  );
}

/** One tile per cluster; Karmada members sit inside their control plane's tile. */
export function ClusterTiles({ clusters }: { clusters: readonly ClusterSummary[] }): React.JSX.Element {
  const names = new Set(clusters.map((c) => c.name));
  const membersOf = new Map<string, ClusterSummary[]>();
  for (const c of clusters) {
    if (c.parent && names.has(c.parent)) membersOf.set(c.parent, [...(membersOf.get(c.parent) ?? []), c]);
  }
  const top = clusters.filter((c) => !c.parent || !names.has(c.parent));
  return (
    <div className={styles.tiles}>
      {top.map((c) => (
        <ClusterTile key={c.name} cluster={c} members={membersOf.get(c.name) ?? []} />
      ))}
    </div>
  );
}
