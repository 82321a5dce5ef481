import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ClusterListResponseSchema } from '@/lib/api/fleet';
import { OverviewPage } from './pages/overview';
import { setFaults } from './sim-admin';
import { collectConsoleErrors } from './checks';

const cluster = 'prod-eu-west-1';
const artifacts = path.resolve(__dirname, 'artifacts');

/**
 * A cluster goes away while the dashboard is open: the banner names it and since when, its tile and its
 * rows say stale, every other cluster keeps answering; when it comes back, all of that clears without a reload.
 */
test.describe('Partial failure', () => {
  test.afterEach(async ({ request }) => {
    // Whatever happened, the cluster is back and synced before the next spec.
    await setFaults(cluster, { down: false });
    await expect
      .poll(async () => ClusterListResponseSchema.parse(await (await request.get('/api/v1/clusters')).json()).clusters.find((c) => c.name === cluster)?.state, { timeout: 60_000 })
      .toBe('synced');
  });

  test('a cluster going down shows as unreachable and stale, live, and clears when it returns', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const overview = new OverviewPage(page);
    await overview.goto();
    await expect(overview.tile(cluster)).toBeVisible();
    await expect(page.getByTestId('partial-failure-banner')).toHaveCount(0);

    await setFaults(cluster, { down: true });
    const banner = page.getByTestId('partial-failure-banner');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText(cluster);
    await expect(banner).toContainText(/unreachable .* showing data from/);
    await expect(overview.tile(cluster).getByTestId('stale-chip')).toBeVisible();
    // Another cluster's tile is untouched.
    await expect(overview.tile('prod-us-east-1').getByTestId('stale-chip')).toHaveCount(0);
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, 'partial-failure-overview-1440-light.png'), fullPage: true });

    // The triage queue still answers, from the last sync for that cluster, and marks its rows.
    await page.goto(`/triage?cluster=${encodeURIComponent(cluster)}`);
    await expect(page.getByTestId('partial-failure-banner')).toContainText(cluster);
    await page.getByRole('button', { expanded: false }).first().click();
    await expect(page.locator('.chip', { hasText: /^stale$/ }).first()).toBeVisible();
    await page.screenshot({ path: path.join(artifacts, 'partial-failure-triage-1440-light.png'), fullPage: true });

    await setFaults(cluster, { down: false });
    await expect(page.getByTestId('partial-failure-banner')).toHaveCount(0, { timeout: 60_000 });
    await expect(page.locator('.chip', { hasText: /^stale$/ })).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});
