'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';

/**
 * View state that lives in the URL (filters, sort, window, selection), so a pasted link shows a
 * colleague the same thing. Updates replace the history entry and keep the scroll position.
 */
export function useUrlState(): {
  params: URLSearchParams;
  get: (key: string) => string | null;
  set: (changes: Record<string, string | null | undefined>) => void;
} {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const params = new URLSearchParams(search.toString());
  const set = useCallback(
    (changes: Record<string, string | null | undefined>) => {
      const next = new URLSearchParams(search.toString());
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === undefined || v === '') next.delete(k);
        else next.set(k, v);
      }
      const qs = next.toString();
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [router, pathname, search],
  );
  return { params, get: (key) => params.get(key), set };
}
