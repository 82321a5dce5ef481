'use client';

import { useCallback } from 'react';
import { useNow } from '../ui/time-zone';
import { useUrlState } from '../ui/use-url-state';

export const WINDOW_PRESETS = ['1h', '6h', '24h', '7d', '30d'] as const;
export type WindowPreset = (typeof WINDOW_PRESETS)[number];
export const DEFAULT_WINDOW: WindowPreset = '6h';

const PRESET_MS: Record<WindowPreset, number> = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};
/** The narrowest zoom: below this a brush is a click. */
export const MIN_SPAN_MS = 30_000;

export interface TimeWindow {
  preset: WindowPreset;
  from: number;
  to: number;
  /** A brushed range (`from`/`to` in the URL) instead of the rolling window. */
  zoomed: boolean;
}

function isPreset(v: string | null): v is WindowPreset {
  return v !== null && (WINDOW_PRESETS as readonly string[]).includes(v);
}

const toIso = (t: number): string => new Date(Math.round(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The page's one time window, kept in the URL (`?window=6h&from=&to=`): a rolling preset ending now, or a zoomed
 * range. Null until the clock is known (server rendering).
 */
export function useTimeWindow(): {
  window: TimeWindow | null;
  setPreset: (preset: WindowPreset) => void;
  zoomTo: (from: number, to: number) => void;
  resetZoom: () => void;
} {
  const { get, set } = useUrlState();
  const now = useNow();
  const rawWindow = get('window');
  const preset = isPreset(rawWindow) ? rawWindow : DEFAULT_WINDOW;
  const from = Date.parse(get('from') ?? '');
  const to = Date.parse(get('to') ?? '');
  const zoomed = Number.isFinite(from) && Number.isFinite(to) && to - from >= MIN_SPAN_MS;

  const setPreset = useCallback((p: WindowPreset) => set({ window: p === DEFAULT_WINDOW ? null : p, from: null, to: null }), [set]);
  const zoomTo = useCallback(
    (a: number, b: number) => {
      const lo = Math.min(a, b);
      const hi = Math.max(a, b, lo + MIN_SPAN_MS);
      set({ from: toIso(lo), to: toIso(hi) });
    },
    [set],
  );
  const resetZoom = useCallback(() => set({ from: null, to: null }), [set]);

  if (zoomed) return { window: { preset, from, to, zoomed: true }, setPreset, zoomTo, resetZoom };
  if (!now) return { window: null, setPreset, zoomTo, resetZoom };
  return { window: { preset, from: now - PRESET_MS[preset], to: now, zoomed: false }, setPreset, zoomTo, resetZoom };
}
