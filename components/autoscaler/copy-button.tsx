'use client';

import { useEffect, useState } from 'react';
import styles from './panels.module.css';

/** Copies `text` with the Clipboard API and says so ("Copied") for two seconds, or that it could not. */
export function CopyButton({ text, label }: { text: string; label: string }): React.JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      className={styles.copy}
      data-state={state}
      data-testid="copy"
      aria-label={state === 'copied' ? `Copied: ${label}` : `Copy ${label}`}
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        );
      }}
    >
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}
