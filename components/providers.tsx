'use client';

import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { isSigningOut } from './access/signing-out';
import { ApiError, isRetryable } from './api/fetch-json';
import { apiPaths } from './api/paths';
import { FleetStream } from './stream/fleet-stream';
import { TimeZoneProvider } from './ui/time-zone';

/** One QueryClient per browser; 4xx answers and unreachable clusters are not retried (see isRetryable). */
export function Providers({ children }: { children: React.ReactNode }): React.JSX.Element {
  const [client] = useState(
    () =>
      new QueryClient({
        // A 401 means the session lapsed (idle or absolute timeout, signed out elsewhere): sign in again and
        // come back to this very URL — unless this page is signing out, whose own navigation must win.
        queryCache: new QueryCache({
          onError: (error) => {
            if (error instanceof ApiError && error.status === 401 && !isSigningOut() && !window.location.pathname.startsWith('/auth/'))
              window.location.assign(apiPaths.signIn(`${window.location.pathname}${window.location.search}`));
          },
        }),
        defaultOptions: {
          queries: {
            staleTime: 5_000,
            refetchOnWindowFocus: false,
            retry: (failures, error) => isRetryable(error) && failures < 3,
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <TimeZoneProvider>
        <FleetStream>{children}</FleetStream>
      </TimeZoneProvider>
    </QueryClientProvider>
  );
}
