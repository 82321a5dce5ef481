import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { collectConsoleErrors } from './checks';

/**
 * Each page names the API reads its view makes as it opens in its HTML (`<link rel="preload" as="fetch">`), built
 * from the URL's filters and sort as the view builds them, and the view takes the preloaded answers: each read is
 * asked for once, beside the page's scripts. With the stream answered 204 (EventSource does not reconnect), nothing
 * invalidates a query, so any fetch of a preloaded URL would be the view asking again.
 */
async function openingReads(
  page: Page,
  path: string,
  ready: (page: Page) => Locator,
): Promise<{ preloaded: string[]; fetchedAgain: string[] }> {
  await page.route('**/api/v1/stream', (r) => r.fulfill({ status: 204 }));
  const fetched: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (r.resourceType() === 'fetch' && u.pathname.startsWith('/api/')) fetched.push(`${u.pathname}${u.search}`);
  });
  await page.goto(path);
  await expect(ready(page).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const preloaded = await page.evaluate(() =>
    [...document.querySelectorAll('link[rel="preload"][as="fetch"]')].map((l) => l.getAttribute('href') ?? ''),
  );
  return { preloaded, fetchedAgain: fetched.filter((u) => preloaded.includes(u)) };
}

const group = 'HorizontalPodAutoscaler/FailedGetResourceMetric';

test.describe('Pages preload the reads they open with', () => {
  test('the triage queue with filters, a sort and an expanded group', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const reads = await openingReads(page, `/triage?kind=HorizontalPodAutoscaler&sort=count&group=${encodeURIComponent(group)}`, (p) =>
      p.getByTestId('problem-group'),
    );
    // The group's rows come in the sort's row order (`count` orders rows worst first).
    expect(reads.preloaded).toEqual([
      '/api/v1/me',
      '/api/v1/clusters',
      '/api/v1/triage?kind=HorizontalPodAutoscaler',
      `/api/v1/autoscalers?kind=HorizontalPodAutoscaler&group=${encodeURIComponent(group)}&sort=health&limit=100&fields=row`,
    ]);
    expect(reads.fetchedAgain).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('the autoscaler list with filters and a sort', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const reads = await openingReads(page, '/autoscalers?cluster=prod-eu-west-1&health=failing,degraded&sort=name', (p) =>
      p.getByTestId('list-summary'),
    );
    expect(reads.preloaded).toEqual([
      '/api/v1/me',
      '/api/v1/clusters',
      '/api/v1/autoscalers?cluster=prod-eu-west-1&health=failing%2Cdegraded&sort=name&limit=200&fields=row',
    ]);
    expect(reads.fetchedAgain).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('the overview, its feed showing every transition', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const reads = await openingReads(page, '/?feed=all', (p) => p.getByTestId('cluster-tile'));
    expect(reads.preloaded).toEqual(['/api/v1/me', '/api/v1/clusters', '/api/v1/triage', '/api/v1/transitions?limit=50']);
    expect(reads.fetchedAgain).toEqual([]);
    expect(errors).toEqual([]);
  });
});
