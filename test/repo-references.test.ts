import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFiles, repoRoot } from './support/repo-files';

const textFile = /\.(ts|tsx|mts|mjs|js|css|md|json|yaml|yml)$|^run$/;
const files = (): string[] => repoFiles(repoRoot, (name) => textFile.test(name) && name !== 'package-lock.json', new Set(['docs']));

/** Documents a clone of this repository does not have: what the code relies on is written into docs/. */
const outside = [
  /\.\.\/shared\//,
  /(^|[\s'"`(])\/work\//,
  /(?<![\w/])(?:DESIGN|STACK|STYLE|UI)\.md/,
  /(?<![\w/])specs\/[\w-]+\.md/,
  /(?<![\w/])seeds\//,
  /\bspecs §/,
];

describe('the repository stands on its own', () => {
  it('no file outside docs/ refers to a document outside the repository', () => {
    const hits = files().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (outside.some((re) => re.test(line)) ? [`${path.relative(repoRoot, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
