import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Vitest's global setup: every temporary directory of a run — the tests' own `mkdtemp`s and those of the simulators,
 * BFFs and PostgreSQL clusters they start, which all ask `os.tmpdir()` — goes under one directory made for the run and
 * removed when it ends. The tests made some sixty a run and left them. `AUTOSCOPE_KEEP_TEST_TMP=1` keeps it (its path
 * is printed) to look at what a failing test wrote.
 */
export default function setup(): () => void {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autoscope-test-'));
  // As /tmp is: a PostgreSQL server started as its own user (the tests run as root in CI) must reach its directory here.
  chmodSync(root, 0o1777);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (process.env.AUTOSCOPE_KEEP_TEST_TMP === '1') console.info(`temporary files of this run kept in ${root}`);
    else rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
