'use client';

import { useQuery } from '@tanstack/react-query';
import { Link } from '../ui/link';
import type { ExplainResponse } from '@/lib/api';
import { ApiError } from '../api/fetch-json';
import type { AutoscalerRef } from '../api/paths';
import { previewHref } from '../api/paths';
import { explainQuery } from '../queries/keys';
import { ConditionChip } from '../ui/health';
import { Skeleton } from '../ui/query-state';
import { Step } from '../ui/step';
import { ClockText } from '../ui/time-zone';
import styles from './panels.module.css';

function Verdict({ data }: { data: ExplainResponse }): React.JSX.Element {
  const r = data.result;
  const action = r.rescale ? `scale ${data.observed.specReplicas} → ${r.desiredReplicas}` : `stay at ${r.replicasAfter}`;
  return (
    <p className={styles.verdict} data-testid="explain-verdict">
      The HPA decision, recomputed now, would <strong>{action}</strong> (desired <span className={styles.n}>{r.desiredReplicas}</span>).{' '}
      {data.controllerDesiredReplicas === null ? (
        <span className="muted">The controller has not reported a decision yet.</span>
      ) : data.agreesWithController === false ? (
        <span className={styles.disagree} data-testid="explain-disagrees">
          The controller&apos;s last decision was {data.controllerDesiredReplicas}: they disagree (its inputs may have changed since).
        </span>
      ) : (
        <span>The controller&apos;s last decision ({data.controllerDesiredReplicas}) agrees.</span>
      )}
    </p>
  );
}

function Observed({ data }: { data: ExplainResponse }): React.JSX.Element {
  const o = data.observed;
  return (
    <div className={styles.observed}>
      <h3 className={styles.h3}>What was read</h3>
      <dl className={styles.facts}>
        <dt>Target replicas</dt>
        <dd className="num">
          spec {o.specReplicas} · status {o.statusReplicas}
        </dd>
        <dt>Pods</dt>
        <dd className="num">
          {o.pods.total} total · {o.pods.running} running · {o.pods.ready} ready · {o.pods.pending} pending · {o.pods.deleting} deleting
        </dd>
        <dt>Selector</dt>
        <dd className="mono">{o.selector || '—'}</dd>
        {o.memberClusters?.length ? (
          <>
            <dt>Member clusters</dt>
            <dd>{o.memberClusters.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      <ul className={styles.sources} aria-label="Metric sources">
        {o.sources.map((s, i) => (
          <li key={`${s.source}-${i}`} className={s.ok ? 'health-ok' : 'health-failing'}>
            <span className="health-dot" aria-hidden="true" /> <span className="mono">{s.source}</span>{' '}
            <strong>{s.ok ? 'answered' : 'failed'}</strong> <span className="muted">{s.detail}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * "Why isn't it scaling?": the HPA controller's decision recomputed from what the cluster serves now
 * (`…/explain`), step by step with its numbers, beside the controller's own last decision.
 */
export function ExplainPanel({ autoscalerRef, id }: { autoscalerRef: AutoscalerRef; id: string }): React.JSX.Element {
  const query = useQuery(explainQuery(autoscalerRef));
  const kind = autoscalerRef.kind === 'FederatedHPA' ? 'FederatedHPA' : 'HorizontalPodAutoscaler';

  let body: React.ReactNode;
  if (query.isPending) body = <Skeleton rows={4} />;
  else if (query.error) {
    const e = query.error;
    // A server without the route (an older build) answers the catch-all 404, not an error about this autoscaler.
    const unavailable = e instanceof ApiError && e.status === 404 && e.message.startsWith('no API route');
    const unreachable = e instanceof ApiError && e.code === 'cluster_unreachable';
    body = (
      <div
        className={`banner ${unavailable ? 'banner-info' : unreachable ? 'banner-warn' : 'banner-bad'}`}
        role="status"
        data-testid="explain-error"
      >
        <strong>
          {unavailable
            ? 'The explanation is not available from this server yet.'
            : unreachable
              ? 'The explanation reads pods and metrics live, and the cluster cannot be reached now.'
              : 'Could not explain this decision.'}
        </strong>{' '}
        {e instanceof ApiError ? (
          <>
            {e.message}
            {e.cluster ? <span className="muted"> (cluster {e.cluster})</span> : null}
            <span className="muted">
              {' '}
              — {e.status ? `HTTP ${e.status}` : 'network'}, {e.code}
            </span>
          </>
        ) : (
          e.message
        )}{' '}
        <button type="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  } else {
    const d = query.data;
    body = (
      <>
        <Verdict data={d} />
        <ol className={styles.steps} data-testid="explain-steps">
          {d.result.explanation.map((line, i) => (
            <li key={i}>
              <Step line={line} accentArrows />
            </li>
          ))}
        </ol>
        {d.result.conditions.length ? (
          <div className={styles.conditions} aria-label="Conditions this decision would set">
            {d.result.conditions.map((c) => (
              <ConditionChip key={c.type} condition={c} />
            ))}
          </div>
        ) : null}
        <Observed data={d} />
        {d.assumptions.length ? (
          <>
            <h3 className={styles.h3}>Assumed</h3>
            <ul className={`${styles.assumptions} muted`}>
              {d.assumptions.map((a, i) => (
                <li key={i}>{a}</li>
              ))}
            </ul>
          </>
        ) : null}
      </>
    );
  }

  return (
    <section className="card" aria-labelledby="explain-title" data-testid="explain">
      <div className={styles.sectionHead}>
        <h2 id="explain-title" className={styles.h2}>
          Why isn&apos;t it scaling?
        </h2>
        <span className={styles.sectionActions}>
          {query.data ? (
            <span className="muted">
              read <ClockText at={query.data.fetchedAt} />
            </span>
          ) : null}
          <button type="button" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {query.isFetching ? 'Reading…' : 'Recompute'}
          </button>
          <Link prefetch={false} className={`button ${styles.linkButton}`} href={previewHref(kind, id)}>
            Preview changes
          </Link>
        </span>
      </div>
      {body}
    </section>
  );
}
