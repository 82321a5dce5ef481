'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { Step } from '../ui/step';
import styles from './preview.module.css';

const MAX_WIDTH = 460;

interface Placement {
  top: number;
  /** Distance from the viewport's left (align left) or right (align right) edge. */
  side: number;
  maxWidth: number;
}

/**
 * A number whose computation shows on hover and on keyboard focus (docs/ui.md: every number can be traced): the
 * explanation lines from `lib/` that produced it. The tooltip is fixed to the viewport, so no scrolling table
 * clips it; Escape or scrolling dismisses it.
 */
export function Traced({
  value,
  lines,
  title,
  align = 'right',
  testId,
}: {
  value: React.ReactNode;
  lines: readonly string[];
  title: string;
  align?: 'left' | 'right';
  testId?: string;
}): React.JSX.Element {
  const id = useId();
  const anchor = useRef<HTMLSpanElement>(null);
  const [place, setPlace] = useState<Placement | null>(null);

  useEffect(() => {
    if (!place) return;
    const hide = (): void => setPlace(null);
    window.addEventListener('scroll', hide, { passive: true, capture: true });
    window.addEventListener('resize', hide);
    return () => {
      window.removeEventListener('scroll', hide, { capture: true });
      window.removeEventListener('resize', hide);
    };
  }, [place]);

  if (lines.length === 0) {
    return (
      <span className="num" data-testid={testId}>
        {value}
      </span>
    );
  }

  const show = (): void => {
    const el = anchor.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const maxWidth = Math.min(MAX_WIDTH, vw - 16);
    const side = align === 'right' ? Math.max(8, vw - r.right) : Math.max(8, Math.min(r.left, vw - maxWidth - 8));
    setPlace({ top: r.bottom + 6, side, maxWidth });
  };
  const hide = (): void => setPlace(null);

  return (
    <span
      ref={anchor}
      className={styles.traced}
      tabIndex={0}
      aria-describedby={id}
      data-testid={testId}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(e) => {
        if (e.key === 'Escape') hide();
      }}
    >
      {value}
      <span
        role="tooltip"
        id={id}
        className={styles.tooltip}
        style={
          place
            ? {
                display: 'block',
                top: place.top,
                maxWidth: place.maxWidth,
                ...(align === 'right' ? { right: place.side } : { left: place.side }),
              }
            : undefined
        }
      >
        <strong>{title}</strong>
        <ol>
          {lines.map((line, i) => (
            <li key={i}>
              <Step line={line} />
            </li>
          ))}
        </ol>
      </span>
    </span>
  );
}
