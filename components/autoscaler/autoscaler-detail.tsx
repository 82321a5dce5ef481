'use client';

import { useQuery } from '@tanstack/react-query';
import { Link } from '../ui/link';
import { ApiError } from '../api/fetch-json';
import type { AutoscalerRef } from '../api/paths';
import { previewHref } from '../api/paths';
import { autoscalerDetailQuery } from '../queries/keys';
import { PartialFailureBanner } from '../ui/partial-failure-banner';
import { EmptyState, QueryError, Skeleton } from '../ui/query-state';
import { DetailHeader } from './detail-header';
import { EventsTable } from './events-table';
import { ExplainPanel } from './explain-panel';
import { FederationMembers } from './federation-members';
import { HistoryPanel } from './history-panel';
import { KubectlCommands } from './kubectl-commands';
import { MachineTargetDiagram } from './machine-target-diagram';
import { MetricsTable } from './metrics-table';
import styles from './panels.module.css';
import { YamlView } from './yaml-view';

/** The page of one autoscaler: header, the shared-axis history, and the panels its kind needs. */
export function AutoscalerDetail({ autoscalerRef }: { autoscalerRef: AutoscalerRef }): React.JSX.Element {
  const query = useQuery(autoscalerDetailQuery(autoscalerRef));

  if (query.isPending) {
    return (
      <div className={styles.page} data-testid="autoscaler-loading">
        <h1 className="page-title">{autoscalerRef.name}</h1>
        <Skeleton rows={3} height={28} />
        <Skeleton rows={8} height={22} />
      </div>
    );
  }
  if (query.error) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return (
        <EmptyState title={`No ${autoscalerRef.kind} ${autoscalerRef.namespace}/${autoscalerRef.name} in ${autoscalerRef.cluster}`}>
          <p>{query.error.message}. It may have been deleted, or the link is from another fleet.</p>
          <p>
            <Link href="/triage">Back to triage</Link>
          </p>
        </EmptyState>
      );
    }
    return (
      <div className={styles.page}>
        <h1 className="page-title">{autoscalerRef.name}</h1>
        <QueryError error={query.error} retry={() => void query.refetch()} />
      </div>
    );
  }

  const d = query.data;
  const a = d.autoscaler;
  const hpaLike = a.kind === 'HorizontalPodAutoscaler' || a.kind === 'FederatedHPA';
  return (
    <div className={styles.page} data-testid="autoscaler-detail" data-kind={a.kind} data-health={a.health}>
      <PartialFailureBanner clusters={d.clusters} />
      {a.stale && !d.clusters.some((c) => c.state === 'unreachable') ? (
        <div className="banner banner-warn" role="status">
          <strong>Stale.</strong> These numbers are from the cluster&apos;s last sync.
        </div>
      ) : null}
      <div className={`${styles.body} ${a.stale ? styles.stale : ''}`}>
        <DetailHeader autoscaler={a} />
        {a.kind === 'HorizontalPodAutoscaler' ? (
          <p className={styles.previewLine}>
            <Link prefetch={false} href={previewHref('HorizontalPodAutoscaler', a.id)}>
              Preview changes to this HPA
            </Link>{' '}
            <span className="muted">— targets, behavior, min/max, a load curve</span>
          </p>
        ) : null}

        <HistoryPanel autoscalerRef={autoscalerRef} kind={a.kind} />

        {a.kind === 'FederatedHPA' ? <FederationMembers autoscaler={a} placement={d.placement} /> : null}
        <div className={styles.columns}>
          <div className={styles.column}>
            {hpaLike ? <ExplainPanel autoscalerRef={autoscalerRef} id={a.id} /> : null}
            {a.kind === 'MachineAutoscaler' ? <MachineTargetDiagram autoscaler={a} machineSets={d.machineSets ?? []} /> : null}
          </div>
          <div className={styles.column}>
            {hpaLike ? <MetricsTable metrics={a.metrics} /> : null}
            <KubectlCommands commands={d.kubectl} />
          </div>
        </div>
        <EventsTable events={d.events} self={`${a.kind}/${a.name}`} />
        <YamlView yaml={d.yaml} name={`${a.namespace}/${a.name}`} />
      </div>
    </div>
  );
}
