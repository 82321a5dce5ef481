'use client';

import { ApiError, isRetryable } from '../api/fetch-json';

/**
 * The error box every data view shows when its query failed, in words. `retry` is offered only where asking again can help (not for a 4xx: the view's
 * own inputs are wrong); `reset` (e.g. "Clear filters") is offered for a 400, which a URL with stale or
 * hand-edited parameters gets.
 */
export function QueryError({
  error,
  retry,
  reset,
}: {
  error: unknown;
  retry?: () => void;
  reset?: { label: string; action: () => void };
}): React.JSX.Element {
  const message = error instanceof ApiError ? error.message : error instanceof Error ? error.message : 'Something went wrong.';
  const notReady = error instanceof ApiError && error.code === 'not_ready';
  const badInput = error instanceof ApiError && error.code === 'bad_request';
  return (
    <div className={`banner ${notReady ? 'banner-info' : 'banner-bad'}`} role="alert">
      <strong>{notReady ? 'Still syncing.' : badInput ? 'This view’s parameters are not valid.' : 'Could not load this view.'}</strong>{' '}
      {message}
      {badInput && reset ? (
        <>
          {' '}
          <button type="button" onClick={reset.action}>
            {reset.label}
          </button>
        </>
      ) : null}
      {retry && isRetryable(error) ? (
        <>
          {' '}
          <button type="button" onClick={retry}>
            Retry
          </button>
        </>
      ) : null}
    </div>
  );
}

/** A loading placeholder with the shape of what is coming. */
export function Skeleton({ rows = 5, height = 20 }: { rows?: number; height?: number }): React.JSX.Element {
  return (
    <div className="skeleton" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-row" style={{ height }} />
      ))}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }): React.JSX.Element {
  return (
    <div className="card empty-state">
      <h2>{title}</h2>
      {children}
    </div>
  );
}
