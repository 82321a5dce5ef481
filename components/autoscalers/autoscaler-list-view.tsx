'use client';

import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import type { AutoscalerSort } from '@/lib/api';
import { NoClusters } from '../no-clusters';
import { HealthLegend } from '../overview/health-legend';
import { autoscalerPagesQuery, clustersQuery } from '../queries/keys';
import type { MemberRow } from '../triage/group-members';
import { GroupMembers } from '../triage/group-members';
import { TriageFilters } from '../triage/triage-filters';
import type { FilterKey } from '../triage/triage-state';
import { hasFilters, noFilters } from '../triage/triage-state';
import type { NavItem } from '../triage/use-queue-keyboard';
import { useQueueKeyboard } from '../triage/use-queue-keyboard';
import styles from '../triage/triage.module.css';
import { PartialFailureBanner } from '../ui/partial-failure-banner';
import { EmptyState, QueryError, Skeleton } from '../ui/query-state';
import { ClockText } from '../ui/time-zone';
import { useUrlState } from '../ui/use-url-state';
import { listParams, readListState } from './list-state';

/** The list's orders, as the API names them; the first is the default. */
const sortChoices: readonly { value: AutoscalerSort; label: string }[] = [
  { value: 'health', label: 'Worst first' },
  { value: 'name', label: 'Name' },
  { value: 'namespace', label: 'Namespace' },
  { value: 'cluster', label: 'Cluster' },
  { value: 'kind', label: 'Kind' },
  { value: 'replicas', label: 'Most replicas first' },
  { value: 'since', label: 'Longest broken first' },
];

/**
 * Every autoscaler of the fleet, healthy ones too, in one virtualized table: for finding a particular one by
 * name, namespace or cluster, where the triage queue shows only what is broken. Filters and sort live in the
 * URL (`?kind=&cluster=&namespace=&health=&reason=&q=&sort=`).
 */
export function AutoscalerListView(): React.JSX.Element {
  const url = useUrlState();
  const state = readListState(url.params);
  const { filter, sort } = state;
  const searchRef = useRef<HTMLInputElement>(null);
  const scrollToRow = useRef<((index: number) => void) | null>(null);
  const setUrl = url.set;
  const onChange = (changes: Partial<Record<FilterKey | 'sort' | 'group', string | null>>): void => setUrl(changes);

  const clusters = useQuery(clustersQuery());
  const list = useInfiniteQuery({
    ...autoscalerPagesQuery(listParams(state)),
    placeholderData: keepPreviousData,
    // Fetched beside the clusters, not after them: a waterfall of round trips is what an operator waits for.
  });
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = list;

  const rows = useMemo((): MemberRow[] => {
    const seen = new Set<string>();
    const out: MemberRow[] = [];
    for (const page of list.data?.pages ?? []) {
      for (const a of page.items) {
        if (seen.has(a.id)) continue;
        seen.add(a.id);
        out.push({ autoscaler: a, problem: a.problems[0] });
      }
    }
    return out;
  }, [list.data]);
  const first = list.data?.pages[0];
  const total = first?.total ?? 0;
  // The triage queue's keys: `/` search, `j`/`k` move through the rows, `Enter` opens one.
  const navItems = useMemo((): NavItem[] => rows.map((r, i) => ({ id: `row:${r.autoscaler.id}`, rowIndex: i })), [rows]);
  useQueueKeyboard(navItems, searchRef, scrollToRow);

  if (clusters.isPending) return <Skeleton rows={8} height={28} />;
  if (clusters.error) return <QueryError error={clusters.error} retry={() => void clusters.refetch()} />;
  const clusterList = clusters.data.clusters;
  if (clusterList.length === 0) return <NoClusters />;
  const clear = { label: 'Clear filters', action: () => onChange({ ...noFilters, sort: null }) };

  return (
    <>
      <PartialFailureBanner clusters={clusterList} />
      <TriageFilters
        filter={filter}
        sort={sort}
        sortChoices={sortChoices}
        label="Filter the autoscaler list"
        clusters={clusterList.map((c) => c.name)}
        namespaces={[]}
        reasons={[]}
        searchRef={searchRef}
        onChange={onChange}
      />
      <div className={styles.summary}>
        <p data-testid="list-summary" aria-live="polite">
          {first ? (
            <>
              <strong className="num">{total}</strong> {total === 1 ? 'autoscaler' : 'autoscalers'}
              {hasFilters(filter) ? ' match' : ' in the fleet'} — last checked <ClockText at={first.generatedAt} />
              {list.isFetching && !isFetchingNextPage ? <span className="muted"> · updating…</span> : null}
            </>
          ) : null}
        </p>
        <HealthLegend />
        <p className={styles.keys} aria-label="Keyboard shortcuts">
          <kbd>/</kbd> search · <kbd>j</kbd> <kbd>k</kbd> move · <kbd>Enter</kbd> open
        </p>
      </div>
      {list.isPending ? (
        <Skeleton rows={8} height={24} />
      ) : list.error ? (
        <QueryError error={list.error} retry={() => void list.refetch()} reset={clear} />
      ) : total === 0 ? (
        <EmptyState title={hasFilters(filter) ? 'No autoscaler matches these filters' : 'No autoscaler in the fleet yet'}>
          <p>
            {hasFilters(filter)
              ? `Nothing in ${clusterList.length} clusters matches them.`
              : `None of the ${clusterList.length} clusters has a HorizontalPodAutoscaler, MachineAutoscaler or FederatedHPA.`}
          </p>
          {hasFilters(filter) ? (
            <button type="button" onClick={clear.action}>
              Clear filters
            </button>
          ) : null}
        </EmptyState>
      ) : (
        <div className="card">
          <GroupMembers
            label="Autoscalers in the fleet"
            total={total}
            rows={rows}
            isPending={false}
            error={null}
            retry={() => void list.refetch()}
            hasMore={hasNextPage}
            loadingMore={isFetchingNextPage}
            loadMore={() => void fetchNextPage()}
            scrollToRow={scrollToRow}
          />
        </div>
      )}
    </>
  );
}
