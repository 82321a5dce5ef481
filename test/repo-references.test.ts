import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
// Build output, test reports and caches (all git-ignored) are not the repository: reports hold this machine's paths.
const skipped = new Set([
  'node_modules',
  '.git',
  '.next',
  '.autoscope',
  '.autoscope-e2e',
  'docs',
  'test-results',
  'playwright-report',
  '.test-reports',
  '.node-versions',
  '.sim',
  '.scratch',
]);
const textFile = /\.(ts|tsx|mts|mjs|js|css|md|json|yaml|yml)$|^run$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (skipped.has(name) || name.startsWith('.next')) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return textFile.test(name) && name !== 'package-lock.json' ? [full] : [];
  });
}

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
    const hits = files(root).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (outside.some((re) => re.test(line)) ? [`${path.relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
