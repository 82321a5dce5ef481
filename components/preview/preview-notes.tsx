import styles from './preview.module.css';

const aboutSeed = /proposal|seed/i;
const disagrees = /no standard|no rounding|contradict|swapped|never fires|wrong|≠|inconsistent|would go from|prints/i;

/** Splits a preview's notes: what concerns the seed proposal's own text, and the rest. */
export function splitNotes(notes: readonly string[]): { seed: string[]; other: string[] } {
  return { seed: notes.filter((n) => aboutSeed.test(n)), other: notes.filter((n) => !aboutSeed.test(n)) };
}

/**
 * Warnings above the chart (docs/ui.md "Previews"): a result that is an error (Karmada refuses to schedule), where
 * the seed proposal's own example prints other numbers (docs/engines/federation.md §4), then the other notes.
 */
export function PreviewNotes({
  notes,
  warnings = [],
  error = null,
}: {
  notes: readonly string[];
  warnings?: readonly string[];
  error?: string | null;
}): React.JSX.Element | null {
  const { seed, other } = splitNotes(notes);
  if (!seed.length && !other.length && !warnings.length && !error) return null;
  const seedDisagrees = seed.some((n) => disagrees.test(n));
  return (
    <div data-testid="preview-notes">
      {error ? (
        <div className="banner banner-bad" role="status" data-testid="preview-result-error">
          <strong>The scheduler would refuse this.</strong> {error}
        </div>
      ) : null}
      {seed.length ? (
        <div className={`banner ${seedDisagrees ? 'banner-warn' : 'banner-info'} ${styles.seedNote}`} role="note" data-testid="seed-notes">
          <strong>{seedDisagrees ? 'The seed proposal prints other numbers here' : 'About the seed proposal'}</strong>
          <ul className={styles.notes}>
            {seed.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {warnings.length ? (
        <div className="banner banner-warn" role="note" data-testid="preview-warnings">
          <ul className={styles.notes}>
            {warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {other.length ? (
        <div className="banner banner-info" role="note" data-testid="preview-other-notes">
          <ul className={styles.notes}>
            {other.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
