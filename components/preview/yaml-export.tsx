'use client';

import { useState } from 'react';
import { Document } from 'yaml';
import styles from './preview.module.css';

/** The result as YAML: shown, copied to the clipboard, or downloaded as a file. */
export function YamlExport({
  value,
  fileName,
  comment,
  title = 'Export as YAML',
}: {
  value: unknown;
  fileName: string;
  comment?: string;
  title?: string;
}): React.JSX.Element {
  const [copied, setCopied] = useState(false);
  const doc = new Document(value);
  if (comment) doc.commentBefore = ` ${comment}`;
  const text = doc.toString({ lineWidth: 0 });
  const download = (): void => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <details data-testid="yaml-export">
      <summary>
        <strong>{title}</strong> <span className="muted">({fileName})</span>
      </summary>
      <div className={styles.buttons} style={{ marginTop: 8 }}>
        <button
          type="button"
          className={styles.small}
          onClick={() => {
            void (navigator.clipboard as Clipboard | undefined)?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className={styles.small} onClick={download}>
          Download
        </button>
      </div>
      <pre className={styles.yaml} data-testid="yaml-text" tabIndex={0}>
        {text}
      </pre>
    </details>
  );
}
