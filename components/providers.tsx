'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { isRetryable } from './api/fetch-json';
import { FleetStream } from './stream/fleet-stream';
import { TimeZoneProvider } from './ui/time-zone';

/** One QueryClient per browser; 4xx answers and unreachable clusters are not retried (see isRetryable). */
export function Providers({ children }: { children: React.ReactNode }): React.JSX.Element {
  const [client] = useState(
    () =>
      new QueryClient({
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
