import styles from './preview.module.css';

const NUMBER = /((?<![\w.-])\d+(?:\.\d+)?(?:%|m(?![\w])|s(?![\w]))?(?![\w-])|→)/;

/** An explanation line with its numbers set apart (tabular, bold), so each step's arithmetic can be followed. */
export function Step({ line }: { line: string }): React.JSX.Element {
  return (
    <>
      {line.split(NUMBER).map((part, i) =>
        i % 2 === 1 ? (
          <span key={i} className={part === '→' ? styles.arrow : styles.n}>
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** The step-by-step explanation `lib/` returns with every preview. */
export function ExplanationSteps({ lines, testId, label }: { lines: readonly string[]; testId?: string; label?: string }): React.JSX.Element {
  if (lines.length === 0) return <p className="muted">No explanation was returned.</p>;
  return (
    <ol className={styles.steps} data-testid={testId} aria-label={label}>
      {lines.map((line, i) => (
        <li key={i}>
          <Step line={line} />
        </li>
      ))}
    </ol>
  );
}
