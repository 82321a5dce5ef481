'use client';

import { useState } from 'react';
import type { DiagnoseResponse } from '@/lib/api';
import { DiagnoseResponseSchema, ErrorBodySchema } from '@/lib/api';
import { DetailHeader } from '../autoscaler/detail-header';
import { MetricsTable } from '../autoscaler/metrics-table';
import styles from './diagnose.module.css';

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'error'; message: string } | { kind: 'done'; result: DiagnoseResponse };

/** POST the paste as text/plain; the answer is parsed with the route's schema. */
async function diagnose(text: string): Promise<DiagnoseResponse> {
  let res: Response;
  try {
    res = await fetch('/api/v1/diagnose', {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8', accept: 'application/json' },
      body: text,
    });
  } catch {
    throw new Error('Autoscope is not reachable. Is the server running?');
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const parsed = ErrorBodySchema.safeParse(json);
    throw new Error(parsed.success ? parsed.data.error.message : `the server answered ${res.status}`);
  }
  return DiagnoseResponseSchema.parse(json);
}

/** Paste kubectl output, read the verdict the fleet view would give the same object. */
export function DiagnoseView(): React.JSX.Element {
  const [text, setText] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });

  const submit = (e: React.FormEvent): void => {
    e.preventDefault();
    setState({ kind: 'busy' });
    diagnose(text).then(
      (result) => setState({ kind: 'done', result }),
      (err: unknown) => setState({ kind: 'error', message: err instanceof Error ? err.message : 'the paste could not be read' }),
    );
  };

  return (
    <div className={styles.layout}>
      <form onSubmit={submit} className={styles.form} aria-label="Paste">
        <label htmlFor="paste" className={styles.label}>
          kubectl get hpa -o yaml|json, or kubectl describe hpa
        </label>
        <textarea
          id="paste"
          data-testid="paste"
          className={styles.paste}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          placeholder={'Name:            web\nNamespace:       shop\nReference:       Deployment/web\n…'}
        />
        <div className={styles.actions}>
          <button type="submit" className="button" disabled={text.trim() === '' || state.kind === 'busy'} data-testid="diagnose">
            {state.kind === 'busy' ? 'Reading…' : 'Diagnose'}
          </button>
          <span className="muted">Read here only: nothing is sent to a cluster, logged or stored. Credentials are refused.</span>
        </div>
      </form>

      <section aria-label="Verdict" className={styles.result} data-testid="verdict">
        {state.kind === 'error' ? (
          <div className="banner banner-bad" role="alert" data-testid="diagnose-error">
            {state.message}
          </div>
        ) : null}
        {state.kind === 'done' ? (
          <>
            {state.result.unread.length > 0 ? (
              <div className="banner banner-warn" role="status" data-testid="unread">
                <strong>Not in this paste:</strong>
                <ul className={styles.unread}>
                  {state.result.unread.map((u) => (
                    <li key={u}>{u}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            {state.result.items.map((a) => (
              <article key={a.id} className={styles.item} data-testid="diagnosed" data-name={a.name} data-health={a.health}>
                <DetailHeader autoscaler={a} />
                {a.kind !== 'MachineAutoscaler' ? <MetricsTable metrics={a.metrics} /> : null}
              </article>
            ))}
          </>
        ) : null}
        {state.kind === 'idle' ? (
          <p className="muted">
            The verdict appears here: health, problems with a next step, conditions and metrics, as the fleet view shows them.
          </p>
        ) : null}
      </section>
    </div>
  );
}
