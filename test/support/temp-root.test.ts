import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the run’s temporary directory', () => {
  it('is where os.tmpdir() points in the test workers', () => {
    expect(path.basename(os.tmpdir())).toMatch(/^autoscope-test-/);
  });
});
