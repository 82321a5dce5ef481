import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, findChromium } from './e2e/chromium';

const port = Number(process.env.E2E_PORT ?? 3123);
/** Where the e2e run's simulator and history live; e2e/sim-admin.ts reads the simulator's admin endpoint from it. */
export const e2eDataDir = process.env.E2E_DATA_DIR ? path.resolve(process.env.E2E_DATA_DIR) : path.resolve(__dirname, '.autoscope-e2e');
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: true,
  globalTimeout: 25 * 60_000,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: findChromium(), args: chromiumArgs },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } } }],
  webServer: {
    // The production server (scripts/serve.mjs) on a build; scripts/start.mjs builds first when the build is missing or stale.
    command: `node scripts/start.mjs --port ${port} --reset-data`,
    url: `${baseURL}/api/healthz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // The demo fleet, whatever kubeconfig the machine has, with fresh data (history, simulator) for each run.
    env: { AUTOSCOPE_DEMO: '1', AUTOSCOPE_DATA_DIR: e2eDataDir, AUTOSCOPE_DEMO_SPEED: process.env.E2E_SPEED ?? '20' },
  },
});
