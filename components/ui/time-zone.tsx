'use client';

import { createContext, useCallback, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { formatClock, formatSince, formatTimestamp } from '@/lib/format/time';

interface TimeZoneState {
  /** `undefined` = the browser's zone. */
  timeZone: string | undefined;
  utc: boolean;
  setUtc: (utc: boolean) => void;
}

const TimeZoneContext = createContext<TimeZoneState>({ timeZone: undefined, utc: false, setUtc: () => undefined });
const storageKey = 'autoscope-utc';

/** Local time with the zone by default; a toggle switches every time on the page to UTC. */
export function TimeZoneProvider({ children }: { children: React.ReactNode }): React.JSX.Element {
  const [utc, setUtcState] = useState(false);
  useEffect(() => {
    setUtcState(window.localStorage.getItem(storageKey) === '1');
  }, []);
  const setUtc = useCallback((value: boolean) => {
    setUtcState(value);
    window.localStorage.setItem(storageKey, value ? '1' : '0');
  }, []);
  return <TimeZoneContext.Provider value={{ timeZone: utc ? 'UTC' : undefined, utc, setUtc }}>{children}</TimeZoneContext.Provider>;
}

export function useTimeZone(): TimeZoneState {
  return useContext(TimeZoneContext);
}

const subscribeNow = (cb: () => void): (() => void) => {
  const t = setInterval(cb, 15_000);
  return () => clearInterval(t);
};
let nowSnapshot = 0;
const getNow = (): number => {
  // Rounded so the snapshot is stable between renders.
  const n = Math.floor(Date.now() / 15_000) * 15_000;
  if (n !== nowSnapshot) nowSnapshot = n;
  return nowSnapshot;
};

/** The current time, refreshed every 15 s (for "for 3 min" labels). 0 during server rendering. */
export function useNow(): number {
  return useSyncExternalStore(subscribeNow, getNow, () => 0);
}

/** "for 3 h 12 min" with the absolute time on hover. */
export function SinceText({ since, prefix = 'for ' }: { since: string | null | undefined; prefix?: string }): React.JSX.Element {
  const now = useNow();
  const { timeZone } = useTimeZone();
  if (!since) return <span className="muted">—</span>;
  const text = now ? formatSince(since, now) : null;
  return (
    <time dateTime={since} title={formatTimestamp(since, timeZone)}>
      {text ? `${prefix}${text}` : formatTimestamp(since, timeZone)}
    </time>
  );
}

/** "14:02 CET" with the full timestamp on hover. */
export function ClockText({ at }: { at: string | null | undefined }): React.JSX.Element {
  const now = useNow();
  const { timeZone } = useTimeZone();
  if (!at) return <span className="muted">—</span>;
  return (
    <time dateTime={at} title={formatTimestamp(at, timeZone)}>
      {now ? formatClock(at, now, timeZone) : formatTimestamp(at, timeZone)}
    </time>
  );
}

export function UtcToggle(): React.JSX.Element {
  const { utc, setUtc } = useTimeZone();
  return (
    <button type="button" aria-pressed={utc} onClick={() => setUtc(!utc)} title="Show times in UTC or in your local zone">
      {utc ? 'UTC' : 'Local time'}
    </button>
  );
}
