import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository's root. */
export const repoRoot = path.resolve(__dirname, '..', '..');

/**
 * What is not the repository, though it sits in the checkout (all git-ignored): dependencies, build output, test
 * reports (which hold this machine's paths), caches, the data directories of `npm start` and the e2e run.
 */
const notTheRepository = new Set([
  'node_modules',
  '.git',
  'test-results',
  'playwright-report',
  '.test-reports',
  '.node-versions',
  '.sim',
  '.scratch',
]);

/** Every file under `dir` whose name `wanted` accepts, outside `notTheRepository`, `.next*`, `.autoscope*` and `also`. */
export function repoFiles(dir: string, wanted: (name: string) => boolean, also: ReadonlySet<string> = new Set()): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (notTheRepository.has(name) || also.has(name) || name.startsWith('.next') || name.startsWith('.autoscope')) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return repoFiles(full, wanted, also);
    return wanted(name) ? [full] : [];
  });
}
