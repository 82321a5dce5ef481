'use client';

import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState } from 'react';
import { StreamMessageSchema } from '@/lib/api';
import { apiPaths } from '../api/paths';
import { fleetKeys } from '../queries/keys';

export type StreamState = 'connecting' | 'live' | 'offline';
const StreamStateContext = createContext<StreamState>('connecting');

export function useStreamState(): StreamState {
  return useContext(StreamStateContext);
}

/**
 * Listens to /api/v1/stream and invalidates the affected queries (components never see the stream).
 * Invalidations are coalesced: at most one refetch wave a second, however busy the fleet.
 */
export function FleetStream({ children }: { children: React.ReactNode }): React.JSX.Element {
  const client = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');

  useEffect(() => {
    const source = new EventSource(apiPaths.stream());
    let pendingIds = new Set<string>();
    let pendingClusters = false;
    let pendingAll = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = (): void => {
      timer = null;
      const ids = pendingIds;
      const all = pendingAll;
      pendingIds = new Set();
      pendingAll = false;
      if (all) {
        // More changed than the server listed: every open autoscaler may be among them.
        void client.invalidateQueries({ queryKey: [...fleetKeys.all, 'detail'] });
        void client.invalidateQueries({ queryKey: [...fleetKeys.all, 'history'] });
      }
      if (ids.size) {
        void client.invalidateQueries({ queryKey: fleetKeys.lists() });
        void client.invalidateQueries({ queryKey: [...fleetKeys.all, 'triage'] });
        void client.invalidateQueries({ queryKey: [...fleetKeys.all, 'transitions'] });
        for (const id of ids) {
          void client.invalidateQueries({ queryKey: fleetKeys.detail(id) });
          void client.invalidateQueries({ queryKey: [...fleetKeys.all, 'history', id] });
        }
      }
      if (ids.size || pendingClusters) void client.invalidateQueries({ queryKey: fleetKeys.clusters() });
      pendingClusters = false;
    };
    const schedule = (): void => {
      timer ??= setTimeout(flush, 1000);
    };
    const onMessage = (event: MessageEvent<string>): void => {
      const parsed = StreamMessageSchema.safeParse(JSON.parse(event.data));
      if (!parsed.success) return;
      if (parsed.data.type === 'changed') {
        parsed.data.ids.forEach((id) => pendingIds.add(id));
        if (parsed.data.truncated) pendingAll = true;
      }
      if (parsed.data.type === 'cluster') pendingClusters = true;
      if (parsed.data.type !== 'heartbeat') schedule();
    };
    source.addEventListener('changed', onMessage);
    source.addEventListener('cluster', onMessage);
    source.addEventListener('heartbeat', onMessage);
    source.onopen = () => setState('live');
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
    return () => {
      if (timer) clearTimeout(timer);
      source.close();
    };
  }, [client]);

  return <StreamStateContext.Provider value={state}>{children}</StreamStateContext.Provider>;
}
