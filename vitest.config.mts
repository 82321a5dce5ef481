import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^server-only$/, replacement: path.resolve(root, 'test/empty-module.ts') },
      { find: /^@\//, replacement: `${root}/` },
    ],
  },
  test: {
    // e2e/ belongs to Playwright (docs/toolchain.md, trap 9).
    include: ['{lib,server,sim,components,app,scripts,test}/**/*.test.{ts,tsx}'],
    exclude: ['node_modules/**', '.next/**', 'e2e/**'],
    environment: 'node',
    // One temporary directory per run, removed at its end (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
