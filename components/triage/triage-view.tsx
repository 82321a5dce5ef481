'use client';

import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { problemInGroup } from '@/lib/triage/group-problems';
import { NoClusters } from '../no-clusters';
import { HealthLegend } from '../overview/health-legend';
import { autoscalerPagesQuery, clustersQuery, triageQuery } from '../queries/keys';
import { PartialFailureBanner } from '../ui/partial-failure-banner';
import { EmptyState, QueryError, Skeleton } from '../ui/query-state';
import { ClockText } from '../ui/time-zone';
import { useUrlState } from '../ui/use-url-state';
import type { MemberRow } from './group-members';
import { allClearText } from './all-clear';
import { GroupMembers } from './group-members';
import { ProblemGroupCard } from './problem-group-card';
import { TriageFilters } from './triage-filters';
import type { FilterKey } from './triage-state';
import {
  groupFirstPageSize,
  groupListFilter,
  groupMembersParams,
  hasFilters,
  noFilters,
  readTriageState,
  sortGroups,
} from './triage-state';
import type { NavItem } from './use-queue-keyboard';
import { useQueueKeyboard } from './use-queue-keyboard';
import styles from './triage.module.css';

/** The triage queue: broken autoscalers across the fleet grouped by cause, filtered and sorted from the URL. */
export function TriageView(): React.JSX.Element {
  const url = useUrlState();
  const state = readTriageState(url.params);
  const { filter, sort } = state;
  const setUrl = url.set;
  const searchRef = useRef<HTMLInputElement>(null);
  const scrollToRow = useRef<((index: number) => void) | null>(null);

  const clusters = useQuery(clustersQuery());
  const triage = useQuery({
    ...triageQuery(filter),
    placeholderData: keepPreviousData,
    // Fetched beside the clusters, not after them: a waterfall of round trips is what an operator waits for.
  });

  const groups = useMemo(() => sortGroups(triage.data?.groups ?? [], sort), [triage.data, sort]);
  const expanded = groups.find((g) => g.key === state.group) ?? null;
  // Asked for beside the queue, from the URL's group (a link to a group): not after the queue has answered.
  const members = useInfiniteQuery({
    ...autoscalerPagesQuery(groupMembersParams(state), groupFirstPageSize),
    enabled: Boolean(state.group),
  });

  const rows = useMemo((): MemberRow[] => {
    if (!expanded || !members.data) return [];
    const seen = new Set<string>();
    const causes = new Map<string, string>();
    const out: MemberRow[] = [];
    for (const page of members.data.pages) {
      for (const a of page.items) {
        if (seen.has(a.id)) continue;
        const problem = problemInGroup(a, expanded.key, causes);
        if (!problem) continue;
        seen.add(a.id);
        out.push({ autoscaler: a, problem });
      }
    }
    return out;
  }, [expanded, members.data]);

  const navItems = useMemo((): NavItem[] => {
    const out: NavItem[] = [];
    for (const g of groups) {
      out.push({ id: `group:${g.key}` });
      if (expanded && g.key === expanded.key) rows.forEach((r, i) => out.push({ id: `row:${r.autoscaler.id}`, rowIndex: i }));
    }
    return out;
  }, [groups, expanded, rows]);
  useQueueKeyboard(navItems, searchRef, scrollToRow);

  // A link to an expanded group (from the overview, or pasted) scrolls it into view once.
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (!expanded || scrolledTo.current === expanded.key) return;
    scrolledTo.current = expanded.key;
    document.querySelector(`[data-group-key="${CSS.escape(expanded.key)}"]`)?.scrollIntoView({ block: 'start' });
  }, [expanded]);

  const onChange = useCallback((changes: Partial<Record<FilterKey | 'sort' | 'group', string | null>>) => setUrl(changes), [setUrl]);
  const { fetchNextPage, hasNextPage, isFetchingNextPage, refetch: refetchMembers } = members;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  if (clusters.isPending) return <Skeleton rows={8} height={28} />;
  if (clusters.error) return <QueryError error={clusters.error} retry={() => void clusters.refetch()} />;
  const clusterList = clusters.data.clusters;
  if (clusterList.length === 0) return <NoClusters />;

  const data = triage.data;
  const namespaces = [...new Set(groups.flatMap((g) => g.namespaces))].sort();
  const reasons = [...new Set(groups.map((g) => g.reason))].sort();
  const allClear = allClearText(data?.clusters ?? clusterList, data?.generatedAt ?? clusters.data.generatedAt, data?.totals.total ?? 0);
  const staleClusters = new Set(
    (data?.clusters ?? clusterList).filter((c) => c.state === 'unreachable' || c.state === 'forbidden').map((c) => c.name),
  );

  return (
    <>
      {data ? <PartialFailureBanner clusters={data.clusters} /> : null}
      <TriageFilters
        filter={filter}
        sort={sort}
        clusters={clusterList.map((c) => c.name)}
        namespaces={namespaces}
        reasons={reasons}
        searchRef={searchRef}
        onChange={onChange}
      />
      <div className={styles.summary}>
        {data ? (
          <p data-testid="triage-summary" aria-live="polite">
            <strong className="num">{groups.length}</strong> {groups.length === 1 ? 'cause' : 'causes'} ·{' '}
            <span className="health-badge health-failing">
              <span className="health-dot" aria-hidden="true" />
              <span className="num">{data.totals.failing}</span> Failing
            </span>{' '}
            ·{' '}
            <span className="health-badge health-degraded">
              <span className="health-dot" aria-hidden="true" />
              <span className="num">{data.totals.degraded}</span> Degraded
            </span>{' '}
            · <span className="num">{data.totals.unknown}</span> Unknown of <span className="num">{data.totals.total}</span> autoscalers
            <span className="muted">
              {' '}
              — last checked <ClockText at={data.generatedAt} />
            </span>
            {triage.isFetching ? <span className="muted"> · updating…</span> : null}
          </p>
        ) : (
          <p />
        )}
        <HealthLegend />
        <p className={styles.keys} aria-label="Keyboard shortcuts">
          <kbd>/</kbd> search · <kbd>j</kbd> <kbd>k</kbd> move · <kbd>Enter</kbd> open
        </p>
      </div>
      {triage.isPending ? (
        <Skeleton rows={6} height={64} />
      ) : triage.error ? (
        <QueryError
          error={triage.error}
          retry={() => void triage.refetch()}
          reset={{ label: 'Clear filters', action: () => onChange({ ...noFilters, sort: null }) }}
        />
      ) : groups.length === 0 ? (
        hasFilters(filter) ? (
          <EmptyState title="Nothing in the queue matches these filters">
            <p>
              No autoscaler with a problem matches them in {clusterList.length} clusters — last checked <ClockText at={data?.generatedAt} />
              .
            </p>
            <button type="button" onClick={() => onChange(noFilters)}>
              Clear filters
            </button>
          </EmptyState>
        ) : (
          <EmptyState title={allClear.title}>
            <p data-testid="all-clear">{allClear.body}</p>
          </EmptyState>
        )
      ) : (
        <ol className={styles.queue} aria-label="Problem groups" data-testid="triage-queue">
          {groups.map((g) => {
            const isOpen = expanded?.key === g.key;
            return (
              <ProblemGroupCard
                key={g.key}
                group={g}
                expanded={isOpen}
                staleClusters={g.clusters.filter((c) => staleClusters.has(c))}
                listFilter={groupListFilter(g.key, filter)}
                onToggle={() => onChange({ group: isOpen ? null : g.key })}
              >
                {isOpen ? (
                  <GroupMembers
                    label={`Autoscalers in “${g.title}”`}
                    total={g.count}
                    rows={rows}
                    isPending={members.isPending}
                    error={members.error}
                    retry={() => void refetchMembers()}
                    hasMore={hasNextPage}
                    loadingMore={isFetchingNextPage}
                    loadMore={loadMore}
                    scrollToRow={scrollToRow}
                  />
                ) : null}
              </ProblemGroupCard>
            );
          })}
        </ol>
      )}
    </>
  );
}
