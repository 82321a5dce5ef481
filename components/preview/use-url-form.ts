'use client';

import { useEffect, useRef, useState } from 'react';
import { useUrlState } from '../ui/use-url-state';

/**
 * A form whose state lives in the URL: read once from the address bar, kept in React state while typing
 * (so inputs never lag behind a navigation), and written back a moment after the last change.
 */
export function useUrlForm<F>(
  read: (params: URLSearchParams) => F,
  toParams: (form: F) => Record<string, string | null>,
  delayMs = 250,
): [F, React.Dispatch<React.SetStateAction<F>>, URLSearchParams] {
  const url = useUrlState();
  const [form, setForm] = useState<F>(() => read(url.params));
  const write = useRef(url.set);
  const current = useRef(url.params.toString());
  useEffect(() => {
    write.current = url.set;
    current.current = url.params.toString();
  });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => {
      const changes = toParams(form);
      const next = new URLSearchParams(current.current);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === '') next.delete(k);
        else next.set(k, v);
      }
      if (next.toString() !== current.current) write.current(changes);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [form, toParams, delayMs]);
  return [form, setForm, url.params];
}

/** `value`, once it has not changed for `delayMs` (compared as JSON, so equal objects do not restart the wait). */
export function useDebouncedValue<T>(value: T, delayMs = 250): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  });
  useEffect(() => {
    const timer = setTimeout(() => setSettled((prev) => (JSON.stringify(prev) === key ? prev : latest.current)), delayMs);
    return () => clearTimeout(timer);
  }, [key, delayMs]);
  return settled;
}
