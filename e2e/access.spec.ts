import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './checks';

/**
 * Sign-in in real Chromium through a real OpenID Connect provider: the demo with AUTOSCOPE_DEMO_AUTH=1 (its
 * own Autoscope and provider on the two ports after E2E_PORT), a deep link that survives the sign-in, the
 * person in the header, what each team sees, and sign-out through the provider's end-session page.
 */
const appPort = Number(process.env.E2E_PORT ?? 3123) + 2;
const providerPort = appPort + 1;
const app = `http://127.0.0.1:${appPort}`;
let server: ChildProcess | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = spawn(process.execPath, ['scripts/start.mjs', '--port', String(appPort)], {
    cwd: path.resolve(__dirname, '..'),
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      AUTOSCOPE_DEMO: '1',
      AUTOSCOPE_DEMO_AUTH: '1',
      AUTOSCOPE_DEMO_AUTH_PORT: String(providerPort),
      AUTOSCOPE_DEMO_SPEED: '20',
      AUTOSCOPE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'e2e-access-')),
    },
  });
  await expect
    .poll(
      async () =>
        fetch(`${app}/api/readyz`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 200_000, intervals: [1000] },
    )
    .toBe(200);
});

test.afterAll(() => {
  // The start script, the simulator, the provider and next-server share one process group.
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
});

async function signInAtProvider(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${providerPort}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: /sign-?in/i }).click();
}

test('a deep link survives sign-in; the header names the person and their groups; each team sees its own clusters', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto(`${app}/triage?cluster=prod-us-east-1`);
  await expect(page.locator('input[name="login"]')).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/access-provider-login.png' });
  await signInAtProvider(page, 'alice');

  await expect(page).toHaveURL(`${app}/triage?cluster=prod-us-east-1`);
  const menu = page.getByTestId('user-menu');
  await expect(menu).toContainText('Alice Example');
  await expect(page.getByTestId('user-groups')).toHaveText('team-web');
  await expect(page.getByTestId('live-indicator')).toHaveText('Live');
  await page.screenshot({ path: 'e2e/artifacts/access-signed-in.png' });

  const cookies = await page.context().cookies(app);
  const session = cookies.find((c) => c.name === 'autoscope_session');
  expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('autoscope_session');

  const clusters = (await (await page.request.get(`${app}/api/v1/clusters`)).json()) as { clusters: { name: string }[] };
  expect(clusters.clusters.map((c) => c.name)).toEqual(['prod-eu-west-1', 'prod-us-east-1']);
  await page.goto(`${app}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/access-overview-alice.png', fullPage: true });
  // A strict Content-Security-Policy and the app under it: no violation, no other console error.
  // The provider's own login page (oidc-provider's default) asks for a web font it cannot reach here: not ours.
  expect(errors.filter((e) => !e.includes(`:${providerPort}`) && !e.includes('fonts.googleapis.com'))).toEqual([]);
});

test('sign-out ends the session here and at the provider; the API then answers 401', async ({ page }) => {
  await page.goto(`${app}/autoscalers`);
  await signInAtProvider(page, 'bob');
  await expect(page).toHaveURL(`${app}/autoscalers`);
  await expect(page.getByTestId('user-groups')).toHaveText('team-platform');
  const clusters = (await (await page.request.get(`${app}/api/v1/clusters`)).json()) as { clusters: { name: string }[] };
  expect(clusters.clusters.map((c) => c.name)).toContain('ocp-prod-east');
  expect(clusters.clusters.some((c) => c.name.startsWith('prod-'))).toBe(false);

  // The session ends when the server takes the POST; the browser follows the answer a moment later. Hold the
  // answer for 4 s after the server has it while the page goes on asking the API (the live stream's events
  // refetch the list): the 401s in that window must not send the page to sign in again over the sign-out.
  let answered = false;
  await page.route('**/auth/logout', async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    await new Promise((r) => setTimeout(r, 4_000));
    answered = true;
    await route.fulfill({ response });
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  // The provider's end-session page asks to confirm, then comes back.
  await expect.poll(() => answered).toBe(true);
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${providerPort}/`));
  await page.getByRole('button', { name: /yes/i }).click();
  await expect(page).toHaveURL(`${app}/auth/signed-out`);
  await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/access-signed-out.png' });
  expect((await page.request.get(`${app}/api/v1/clusters`)).status()).toBe(401);
  // Signing in again asks the provider again (its session ended too).
  await page.getByRole('link', { name: 'Sign in again' }).click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
});

test('someone no rule names signs in and sees an empty fleet', async ({ page }) => {
  await page.goto(`${app}/`);
  await signInAtProvider(page, 'carol');
  await expect(page.getByTestId('user-menu')).toContainText('Carol Example');
  const triage = (await (await page.request.get(`${app}/api/v1/triage`)).json()) as { totals: { total: number }; clusters: unknown[] };
  expect(triage.totals.total).toBe(0);
  expect(triage.clusters).toEqual([]);
});
