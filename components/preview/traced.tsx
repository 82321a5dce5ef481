'use client';

import { useId } from 'react';
import { Step } from './explanation-steps';
import styles from './preview.module.css';

/**
 * A number whose computation shows on hover and on keyboard focus (UI.md: every number can be traced):
 * the explanation lines from `lib/` that produced it.
 */
export function Traced({ value, lines, title, align = 'right', testId }: { value: React.ReactNode; lines: readonly string[]; title: string; align?: 'left' | 'right'; testId?: string }): React.JSX.Element {
  const id = useId();
  if (lines.length === 0) {
    return (
      <span className="num" data-testid={testId}>
        {value}
      </span>
    );
  }
  return (
    <span className={styles.traced} tabIndex={0} aria-describedby={id} data-testid={testId}>
      {value}
      <span role="tooltip" id={id} className={`${styles.tooltip} ${align === 'left' ? styles.tooltipLeft : ''}`}>
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
