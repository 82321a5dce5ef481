import { CopyButton } from './copy-button';
import styles from './panels.module.css';

/** The object as stored (without managedFields and kubectl's last-applied-configuration), folded by default. */
export function YamlView({ yaml, name }: { yaml: string; name: string }): React.JSX.Element {
  return (
    <section className="card" aria-labelledby="yaml-title" data-testid="yaml">
      <div className={styles.sectionHead}>
        <h2 id="yaml-title" className={styles.h2}>
          YAML
        </h2>
        <CopyButton text={yaml} label={`YAML of ${name}`} />
      </div>
      <details className={styles.yamlDetails}>
        <summary>Show the object ({yaml.split('\n').length} lines, managedFields and last-applied-configuration removed)</summary>
        <pre className={styles.yaml} tabIndex={0} aria-label={`YAML of ${name}`}>
          {yaml}
        </pre>
      </details>
    </section>
  );
}
