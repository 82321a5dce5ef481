'use client';

import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Link } from '../ui/link';
import { useRouter } from 'next/navigation';
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AutoscalerRow, RowProblem } from '@/lib/api';
import { autoscalerHref } from '../api/paths';
import { HealthBadge } from '../ui/health';
import { QueryError, Skeleton } from '../ui/query-state';
import { SinceText } from '../ui/time-zone';
import { autoscalerKindShort } from '../overview/kind-label';
import styles from './triage.module.css';

export interface MemberRow {
  autoscaler: AutoscalerRow;
  problem: RowProblem | undefined;
}

export interface GroupMembersProps {
  /** What the rows are, for screen readers ("Autoscalers in …"). */
  label: string;
  /** How many there are in all (the rows load page by page). */
  total: number;
  rows: readonly MemberRow[];
  isPending: boolean;
  error: unknown;
  retry: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  /** Filled with a function that scrolls a row into the window (the keyboard cursor uses it). */
  scrollToRow: React.RefObject<((index: number) => void) | null>;
}

const rowHeight = 32;

function Num({ value }: { value: number | null }): React.JSX.Element {
  return <span className={styles.numCell}>{value ?? '—'}</span>;
}

const Row = memo(function Row({ row, index, start }: { row: MemberRow; index: number; start: number }): React.JSX.Element {
  const router = useRouter();
  const a = row.autoscaler;
  const href = autoscalerHref(a);
  const problem = row.problem;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      tabIndex={-1}
      className={a.stale ? `${styles.row} ${styles.rowStale}` : styles.row}
      style={{ transform: `translateY(${start}px)` }}
      data-nav-id={`row:${a.id}`}
      data-testid="group-member"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target === e.currentTarget) router.push(href);
      }}
    >
      <span role="cell" className={styles.cellHealth}>
        <HealthBadge health={a.health} compact />
      </span>
      <span role="cell" className={styles.cellName}>
        {/* No viewport prefetch: rows scroll by in thousands. */}
        <Link href={href} title={`${a.namespace}/${a.name}`} prefetch={false}>
          {a.name}
        </Link>
        {a.stale ? <span className="chip">stale</span> : null}
      </span>
      <span role="cell" title={a.kind}>
        {autoscalerKindShort[a.kind]}
      </span>
      <span role="cell">
        <span className="chip" title={a.cluster}>
          {a.cluster}
        </span>
      </span>
      <span role="cell">
        <span className="chip" title={a.namespace}>
          {a.namespace}
        </span>
      </span>
      <span role="cell" className={styles.cellReason} title={problem ? `${problem.code}: ${problem.message}` : undefined}>
        {problem ? (
          <>
            <span className="mono">{problem.code}</span> <span className="muted">{problem.message}</span>
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </span>
      <span role="cell">
        <SinceText since={problem?.since} />
      </span>
      <span role="cell" className={styles.cellNum}>
        <Num value={a.currentReplicas} />
      </span>
      <span role="cell" className={styles.cellNum}>
        <Num value={a.desiredReplicas} />
      </span>
      <span role="cell" className={styles.cellNum}>
        <Num value={a.minReplicas} />
      </span>
      <span role="cell" className={styles.cellNum}>
        <Num value={a.maxReplicas} />
      </span>
    </div>
  );
});

/**
 * The autoscalers of one group as a dense table. Rows are virtualized against the window (only the ones
 * in view are in the DOM), so a group of 10,000 scrolls like one of 10; pages load as the end comes near.
 */
export function GroupMembers({
  label,
  total,
  rows,
  isPending,
  error,
  retry,
  hasMore,
  loadingMore,
  loadMore,
  scrollToRow,
}: GroupMembersProps): React.JSX.Element {
  const bodyRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const measure = (): void => {
      const el = bodyRef.current;
      if (el) setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [isPending]);

  const virtualizer = useWindowVirtualizer({ count: rows.length, estimateSize: () => rowHeight, overscan: 16, scrollMargin });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? (items[items.length - 1]?.index ?? 0) : -1;

  useEffect(() => {
    scrollToRow.current = (index: number) => virtualizer.scrollToIndex(index, { align: 'auto' });
    return () => {
      scrollToRow.current = null;
    };
  }, [scrollToRow, virtualizer]);

  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= rows.length - 40) loadMore();
  }, [hasMore, loadingMore, lastIndex, rows.length, loadMore]);

  if (isPending) return <Skeleton rows={Math.max(1, Math.min(total, 6))} height={24} />;
  if (error) return <QueryError error={error} retry={retry} />;
  return (
    <div className={styles.members}>
      <div role="table" aria-label={label} aria-rowcount={total + 1} data-testid="group-members">
        <div role="rowgroup" className={styles.membersHead}>
          <div role="row" aria-rowindex={1} className={`${styles.row} ${styles.headRow}`}>
            <span role="columnheader">
              <span className="visually-hidden">Health</span>
            </span>
            <span role="columnheader">Name</span>
            <span role="columnheader">Kind</span>
            <span role="columnheader">Cluster</span>
            <span role="columnheader">Namespace</span>
            <span role="columnheader">Reason</span>
            <span role="columnheader">Since</span>
            <span role="columnheader" className={styles.cellNum} title="Current replicas">
              Current
            </span>
            <span role="columnheader" className={styles.cellNum} title="Desired replicas">
              Desired
            </span>
            <span role="columnheader" className={styles.cellNum} title="minReplicas">
              Min
            </span>
            <span role="columnheader" className={styles.cellNum} title="maxReplicas">
              Max
            </span>
          </div>
        </div>
        <div role="rowgroup" ref={bodyRef} className={styles.membersBody} style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index];
            return row ? <Row key={row.autoscaler.id} row={row} index={item.index} start={item.start - scrollMargin} /> : null;
          })}
        </div>
      </div>
      <p className={styles.membersFoot} aria-live="polite">
        {rows.length === 0 && !hasMore ? (
          'None of these autoscalers matches the filters any more.'
        ) : (
          <>
            Showing <span className="num">{rows.length}</span> of <span className="num">{total}</span>
            {loadingMore || hasMore ? ' — loading more as you scroll…' : null}
          </>
        )}
      </p>
    </div>
  );
}
