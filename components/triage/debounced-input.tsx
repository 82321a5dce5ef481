'use client';

import { useEffect, useRef, useState } from 'react';

interface DebouncedInputProps extends Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'defaultValue'> {
  value: string;
  onCommit: (value: string) => void;
  delayMs?: number;
  ref?: React.Ref<HTMLInputElement>;
}

/**
 * A text input that writes to the URL a moment after typing stops (one history entry per pause, not per key),
 * and follows the URL when it changes from elsewhere (Clear, back button) without eating keys typed meanwhile.
 */
export function DebouncedInput({ value, onCommit, delayMs = 250, ref, ...rest }: DebouncedInputProps): React.JSX.Element {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The timer fires after later renders; it must call the latest onCommit (it closes over the current URL).
  const latestCommit = useRef(onCommit);
  useEffect(() => {
    latestCommit.current = onCommit;
  });

  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const commit = (next: string): void => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (next.trim() === committed.current) return;
    committed.current = next.trim();
    latestCommit.current(next.trim());
  };

  return (
    <input
      {...rest}
      ref={ref}
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => commit(next), delayMs);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(text);
        rest.onKeyDown?.(e);
      }}
      onBlur={(e) => {
        commit(text);
        rest.onBlur?.(e);
      }}
    />
  );
}
