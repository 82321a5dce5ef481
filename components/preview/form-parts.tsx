import styles from './preview.module.css';

/** A number input's text as a number; empty or not a number → undefined (the server then names the field). */
export function toNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** The server's messages for one input, under it (its `id` is the input's aria-describedby). */
export function Issue({ id, messages }: { id: string; messages: readonly string[] | undefined }): React.JSX.Element | null {
  if (!messages?.length) return null;
  return (
    <span id={id} className={styles.fieldError} data-testid="field-issue">
      {messages.join('; ')}
    </span>
  );
}

/** The server's issues that name no input of the form, listed at its end. */
export function UnplacedIssues({ issues }: { issues: readonly { path: string; message: string }[] }): React.JSX.Element | null {
  if (!issues.length) return null;
  return (
    <ul className={styles.issueList} data-testid="form-issues">
      {issues.map((i, k) => (
        <li key={k}>
          <span className="mono">{i.path || 'request'}</span>: {i.message}
        </li>
      ))}
    </ul>
  );
}
