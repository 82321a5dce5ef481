import { Link } from '../ui/link';
import type { Autoscaler, FederationPlacement, Health } from '@/lib/api';
import { previewHref } from '../api/paths';
import styles from './panels.module.css';

const readyHealth: Record<'True' | 'False' | 'Unknown', Health> = { True: 'ok', False: 'failing', Unknown: 'unknown' };

const strategyText: Record<FederationPlacement['strategy'], string> = {
  Duplicated: 'every member runs the full replica count',
  StaticWeight: 'replicas divided by fixed weights',
  DynamicWeight: 'new replicas divided by each member’s available replicas, removed ones in proportion to the split',
  Aggregated: 'replicas packed into as few members as fit',
  Unknown: 'no placement found',
};

/**
 * Per member cluster: the replicas the ResourceBinding assigns (solid), how many are ready there, the estimated
 * room for more (light, on the same scale, cut off with its number when it runs past), and the member's readiness.
 */
export function FederationMembers({
  autoscaler: a,
  placement,
}: {
  autoscaler: Autoscaler;
  placement: FederationPlacement | undefined;
}): React.JSX.Element {
  const members = placement?.members ?? a.federation?.members.map((m) => ({ ...m, readyReplicas: null, applied: null })) ?? [];
  const scale = Math.max(1, a.maxReplicas ?? 0, ...members.map((m) => m.replicas));
  const total = members.reduce((n, m) => n + m.replicas, 0);
  const pct = (n: number): number => Math.min(100, (n / scale) * 100);
  return (
    <section className="card" aria-labelledby="members-title" data-testid="federation-members">
      <div className={styles.sectionHead}>
        <h2 id="members-title" className={styles.h2}>
          Member clusters
        </h2>
        <Link prefetch={false} className={`button ${styles.linkButton}`} href={previewHref('FederatedHPA', a.id)}>
          Preview changes
        </Link>
      </div>
      <dl className={styles.facts}>
        <dt>Strategy</dt>
        <dd data-testid="federation-strategy">
          <strong>{placement?.strategy ?? a.federation?.strategy ?? 'Unknown'}</strong>{' '}
          <span className="muted">— {strategyText[placement?.strategy ?? a.federation?.strategy ?? 'Unknown']}</span>
        </dd>
        <dt>PropagationPolicy</dt>
        <dd className="mono">{placement?.policy ?? '—'}</dd>
        <dt>ResourceBinding</dt>
        <dd className="mono">{placement?.binding ?? '—'}</dd>
        <dt>Template replicas</dt>
        <dd className="num">
          {placement?.templateReplicas ?? '—'}
          {members.length ? (
            <span className="muted">
              {' '}
              · {total} assigned across {members.length} members
            </span>
          ) : null}
        </dd>
      </dl>
      {members.length === 0 ? (
        <p className="muted">The ResourceBinding assigns no member clusters yet.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={`data-table ${styles.memberTable}`}>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Ready</th>
                <th scope="col" className={styles.barCol}>
                  Replicas <span className="muted">(0 – {scale})</span>
                </th>
                <th scope="col" className="num">
                  Assigned
                </th>
                <th scope="col" className="num">
                  Ready pods
                </th>
                <th scope="col" className="num">
                  Available
                </th>
                {placement?.staticWeights ? (
                  <th scope="col" className="num">
                    Weight
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {members.map((m) => {
                const h = readyHealth[m.ready];
                const room = m.availableReplicas ?? 0;
                return (
                  <tr key={m.cluster} data-testid="member-row" data-cluster={m.cluster}>
                    <td className="mono">{m.cluster}</td>
                    <td>
                      <span className={`condition-chip health-${h}`} title={m.readyReason ?? undefined}>
                        <span className="health-dot" aria-hidden="true" />
                        <span className="mono">Ready={m.ready}</span>
                        {m.readyReason ? <span className="condition-reason">{m.readyReason}</span> : null}
                      </span>
                    </td>
                    <td className={styles.barCol}>
                      <span
                        className={styles.memberBar}
                        role="img"
                        aria-label={`${m.cluster}: ${m.replicas} assigned, ${m.readyReplicas ?? 'unknown'} ready, ${m.availableReplicas ?? 'unknown'} more estimated available`}
                      >
                        {m.availableReplicas !== null ? (
                          <span
                            className={styles.barRoom}
                            style={{ left: `${pct(m.replicas)}%`, width: `${Math.max(0, pct(m.replicas + room) - pct(m.replicas))}%` }}
                          />
                        ) : null}
                        <span className={`${styles.barAssigned} health-${h}`} style={{ width: `${pct(m.replicas)}%` }} />
                        {m.readyReplicas !== null ? (
                          <span className={styles.barReady} style={{ left: `${pct(m.readyReplicas)}%` }} />
                        ) : null}
                        {m.availableReplicas !== null && m.replicas + room > scale ? (
                          <span className={styles.barOverflow}>+{room} ›</span>
                        ) : null}
                      </span>
                    </td>
                    <td className="num">{m.replicas}</td>
                    <td className="num">{m.readyReplicas ?? '—'}</td>
                    <td className="num">{m.availableReplicas ?? '—'}</td>
                    {placement?.staticWeights ? <td className="num">{placement.staticWeights[m.cluster] ?? '—'}</td> : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p className={`${styles.note} muted`}>
        Solid: replicas assigned by the ResourceBinding (coloured by the member&apos;s readiness); tick: ready pods; light: estimated
        available replicas (Karmada&apos;s general estimator).
      </p>
    </section>
  );
}
