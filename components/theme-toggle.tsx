'use client';

import { useSyncExternalStore } from 'react';

type Theme = 'light' | 'dark';
const storageKey = 'autoscope-theme';

function currentTheme(): Theme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Switches between light and dark; the choice is kept in localStorage, the default follows the system. */
export function ThemeToggle(): React.JSX.Element {
  const theme = useSyncExternalStore(subscribe, currentTheme, () => 'light');
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => {
        document.documentElement.dataset.theme = next;
        window.localStorage.setItem(storageKey, next);
        listeners.forEach((l) => l());
      }}
    >
      {theme === 'dark' ? '☀ Light' : '☾ Dark'}
    </button>
  );
}

/** Runs before first paint (inline in <head>) so the page never flashes the wrong theme. */
export const themeBootScript = `(function(){try{var t=localStorage.getItem('${storageKey}');if(t!=='light'&&t!=='dark'){t=window.matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}document.documentElement.dataset.theme=t}catch(e){}})();`;
