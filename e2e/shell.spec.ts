import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './checks';
import { AppShellPage } from './pages/app-shell';

test('the app shell navigates and switches theme, and the API answers JSON', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);

  await page.goto('/');
  const shell = new AppShellPage(page);
  await expect(shell.navLink('Overview')).toHaveAttribute('aria-current', 'page');

  await shell.navLink('Previews').click();
  await expect(page).toHaveURL(/\/preview$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Previews' })).toBeVisible();
  await expect(shell.navLink('Previews')).toHaveAttribute('aria-current', 'page');

  const before = await shell.theme();
  await shell.themeToggle.click();
  const after = await shell.theme();
  expect(after).not.toBe(before);
  await page.reload();
  expect(await shell.theme()).toBe(after);

  const health = await request.get('/api/healthz');
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });

  const missing = await request.get('/api/nope');
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ error: { code: 'not_found', message: 'no API route GET /api/nope' } });

  // A malformed path is a 400 with the JSON body (proxy.ts), not the router's bare 500.
  const malformed = await request.get('/api/v1/autoscalers/%E0%A4%A/HorizontalPodAutoscaler/shop/web');
  expect(malformed.status()).toBe(400);
  expect(await malformed.json()).toEqual({ error: { code: 'bad_request', message: 'malformed percent-encoding in the request path' } });
  // The API only reads: a write method is a 405 naming what is allowed.
  const write = await request.delete('/api/v1/autoscalers');
  expect(write.status()).toBe(405);
  expect(write.headers()['allow']).toBe('GET, HEAD');
  expect(((await write.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');

  expect(errors).toEqual([]);
});

test('links prefetch their page when reached for, not when they come into view', async ({ page }) => {
  // Each prefetch of a dynamic page is a server render on the BFF's request thread (components/ui/link.tsx).
  const prefetched: string[] = [];
  page.on('request', (r) => {
    if (r.headers()['next-router-prefetch']) prefetched.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  const shell = new AppShellPage(page);
  // The Overview is full of links (a tile per cluster, the top problems, the feed): once it shows its data, and a
  // second later, none of them has been fetched.
  await expect(page.getByTestId('cluster-tile').first()).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(prefetched).toEqual([]);

  const prefetch = page.waitForRequest((r) => !!r.headers()['next-router-prefetch'] && new URL(r.url()).pathname === '/diagnose');
  await shell.navLink('Diagnose').hover();
  await prefetch;
  await shell.navLink('Diagnose').click();
  await expect(page).toHaveURL(/\/diagnose$/);
});
