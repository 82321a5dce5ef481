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
