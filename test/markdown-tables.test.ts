import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFiles, repoRoot } from './support/repo-files';

/** Cells of a table row: `|` separators outside code spans, less an escaped `\|`. */
function cellCount(row: string): number {
  return (
    row
      .replace(/`[^`]*`/g, '')
      .replace(/\\\|/g, '')
      .split('|').length - 2
  );
}

/** Each table's rows whose column count differs from its header's, as `file:line`. */
function ragged(text: string, file: string): string[] {
  const out: string[] = [];
  let header: number | undefined;
  text.split('\n').forEach((line, i) => {
    if (!line.startsWith('|')) {
      header = undefined;
      return;
    }
    const cells = cellCount(line);
    if (header === undefined) header = cells;
    else if (cells !== header) out.push(`${file}:${i + 1}: ${cells} columns, header ${header}`);
  });
  return out;
}

describe("the documents' tables", () => {
  it('a row with a column its header lacks is caught', () => {
    const table = ['| run | A | goal |', '|---|---|---|', '| sync | 41 s | ≤ 2× |', '| list | 0.8 / 17.8 |12.2 / 81.5 | ≤ 50 |'];
    expect(ragged(table.join('\n'), 't.md')).toEqual(['t.md:4: 4 columns, header 3']);
    expect(ragged('| a | `x | y` | b \\| c |\n|---|---|---|', 't.md')).toEqual([]);
  });

  it('every table in the repository has as many columns in each row as in its header', () => {
    const hits = repoFiles(repoRoot, (name) => name.endsWith('.md')).flatMap((file) =>
      ragged(readFileSync(file, 'utf8'), path.relative(repoRoot, file)),
    );
    expect(hits).toEqual([]);
  });
});
