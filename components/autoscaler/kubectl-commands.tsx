import type { AutoscalerDetailResponse } from '@/lib/api';
import { CopyButton } from './copy-button';
import styles from './panels.module.css';

/** Ready-to-paste kubectl commands for this autoscaler and what it targets. */
export function KubectlCommands({ commands }: { commands: AutoscalerDetailResponse['kubectl'] }): React.JSX.Element {
  return (
    <section className="card" aria-labelledby="kubectl-title" data-testid="kubectl">
      <h2 id="kubectl-title" className={styles.h2}>
        kubectl
      </h2>
      <ul className={styles.commands}>
        {commands.map((c) => (
          <li key={c.command}>
            <div className="muted">{c.label}</div>
            <div className={styles.commandRow}>
              <code className={styles.command}>{c.command}</code>
              <CopyButton text={c.command} label={`command: ${c.label}`} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
