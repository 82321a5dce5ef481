'use client';

import { useEffect, useRef } from 'react';

export interface NavItem {
  /** `group:<key>` or `row:<id>`, as in the element's `data-nav-id`. */
  id: string;
  /** For a row of the expanded group, its index in the virtualized list. */
  rowIndex?: number;
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

function findNav(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-nav-id="${CSS.escape(id)}"]`);
}

/**
 * The queue's keys: `/` focuses the search, `j`/`k` move through groups and the rows of the expanded group
 * (scrolling virtualized rows into the DOM first), `Enter` opens what is focused (the elements handle it).
 */
export function useQueueKeyboard(
  items: readonly NavItem[],
  searchRef: React.RefObject<HTMLInputElement | null>,
  scrollToRow: React.RefObject<((index: number) => void) | null>,
): void {
  const latest = useRef(items);
  const cursor = useRef(-1);
  useEffect(() => {
    latest.current = items;
  });

  useEffect(() => {
    let frame = 0;
    const focusItem = (item: NavItem, attempts: number): void => {
      const el = findNav(item.id);
      if (el) {
        el.focus({ preventScroll: true });
        el.scrollIntoView({ block: 'nearest' });
        return;
      }
      if (attempts > 0) frame = requestAnimationFrame(() => focusItem(item, attempts - 1));
    };
    const onKeyDown = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isEditable(e.target)) return;
      if (e.key === '/') {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
        return;
      }
      if (e.key !== 'j' && e.key !== 'k') return;
      const list = latest.current;
      if (list.length === 0) return;
      e.preventDefault();
      const focusedId =
        document.activeElement instanceof HTMLElement
          ? document.activeElement.closest<HTMLElement>('[data-nav-id]')?.dataset.navId
          : undefined;
      const focusedIndex = focusedId ? list.findIndex((i) => i.id === focusedId) : -1;
      const current = focusedIndex >= 0 ? focusedIndex : Math.min(cursor.current, list.length - 1);
      const next = current < 0 ? 0 : Math.max(0, Math.min(list.length - 1, current + (e.key === 'j' ? 1 : -1)));
      cursor.current = next;
      const item = list[next];
      if (!item) return;
      cancelAnimationFrame(frame);
      if (item.rowIndex !== undefined && !findNav(item.id)) scrollToRow.current?.(item.rowIndex);
      focusItem(item, 10);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [searchRef, scrollToRow]);
}
