import { Step } from '../ui/step';
import styles from './preview.module.css';

/** The step-by-step explanation `lib/` returns with every preview. */
export function ExplanationSteps({
  lines,
  testId,
  label,
}: {
  lines: readonly string[];
  testId?: string;
  label?: string;
}): React.JSX.Element {
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
