import styles from './step.module.css';

const NUMBER = /((?<![\w.-])\d+(?:\.\d+)?(?:%|m(?![\w])|s(?![\w]))?(?![\w-])|→)/;

/**
 * One explanation step with its numbers set apart (tabular, bold), so each step's arithmetic can be followed.
 * The explain panel draws its arrows in the accent colour, the previews muted.
 */
export function Step({ line, accentArrows = false }: { line: string; accentArrows?: boolean }): React.JSX.Element {
  return (
    <>
      {line.split(NUMBER).map((part, i) =>
        i % 2 === 1 ? (
          <span key={i} className={part === '→' ? (accentArrows ? styles.arrowAccent : styles.arrow) : styles.n}>
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}
