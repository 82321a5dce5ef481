'use client';

import { ApiError } from '../api/fetch-json';

/** The error box every data view shows when its query failed. */
export function QueryError({ error, retry }: { error: unknown; retry?: () => void }): React.JSX.Element {
  const message = error instanceof ApiError ? error.message : error instanceof Error ? error.message : 'Something went wrong.';
  const notReady = error instanceof ApiError && error.code === 'not_ready';
  return (
    <div className={`banner ${notReady ? 'banner-info' : 'banner-bad'}`} role="alert">
      <strong>{notReady ? 'Still syncing.' : 'Could not load this view.'}</strong> {message}
      {retry ? (
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
