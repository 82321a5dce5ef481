import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { TriagePage } from './pages/triage';
import { setEpisode } from './sim-admin';

function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

const outageGroup = 'HorizontalPodAutoscaler/FailedGetResourceMetric';

test.describe('Triage', () => {
  test.describe('while the metrics-outage episode runs', () => {
    test.beforeAll(async () => {
      await setEpisode('metrics-outage', 'start');
    });
    test.afterAll(async () => {
      await setEpisode('metrics-outage', 'schedule');
    });

    test('the queue shows one group naming the cluster, and it expands to that cluster’s HPAs', async ({ page }) => {
      const errors = collectConsoleErrors(page);
      const triage = new TriagePage(page);
      await triage.goto();
      await expect(triage.heading).toBeVisible();
      // The stream refreshes the queue as the informers see the outage.
      const group = triage.groupWithCause('prod-us-east-1');
      await expect(group.first()).toBeVisible({ timeout: 45_000 });
      await expect(group.first().getByTestId('likely-cause')).toContainText('metrics API unavailable in cluster prod-us-east-1');

      const outage = triage.groupByKey(outageGroup);
      await triage.toggle(outage).click();
      await expect(page).toHaveURL(new RegExp(`group=${encodeURIComponent(outageGroup)}`));
      await expect(triage.toggle(outage)).toHaveAttribute('aria-expanded', 'true');
      await expect(triage.members.first()).toBeVisible();
      const rowCount = await triage.members.count();
      expect(rowCount).toBeGreaterThan(1);
      await expect(triage.members.getByRole('cell').filter({ hasText: /^prod-us-east-1$/ })).toHaveCount(rowCount);

      const axe = await new AxeBuilder({ page }).analyze();
      const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      expect(errors).toEqual([]);
    });

    test('screenshots at 1440 and 1024, light and dark', async ({ page }) => {
      const errors = collectConsoleErrors(page);
      const triage = new TriagePage(page);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        for (const width of [1440, 1024]) {
          await page.setViewportSize({ width, height: 900 });
          await triage.goto(`?group=${encodeURIComponent(outageGroup)}`);
          await expect(triage.members.first()).toBeVisible({ timeout: 45_000 });
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: `e2e/artifacts/triage-${width}-${colorScheme}.png`, fullPage: true });
        }
      }
      expect(errors).toEqual([]);
    });
  });

  test('filters and sort live in the URL and survive a reload', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const triage = new TriagePage(page);
    await triage.goto();
    await expect(triage.groups.first()).toBeVisible();

    await triage.kind.selectOption('HorizontalPodAutoscaler');
    await expect(page).toHaveURL(/kind=HorizontalPodAutoscaler/);
    await triage.cluster.selectOption('prod-eu-west-1');
    await expect(page).toHaveURL(/cluster=prod-eu-west-1/);
    await triage.sort.selectOption('count');
    await expect(page).toHaveURL(/sort=count/);
    await triage.search.fill('gateway');
    await expect(page).toHaveURL(/q=gateway/);

    await page.reload();
    await expect(triage.kind).toHaveValue('HorizontalPodAutoscaler');
    await expect(triage.cluster).toHaveValue('prod-eu-west-1');
    await expect(triage.sort).toHaveValue('count');
    await expect(triage.search).toHaveValue('gateway');
    // The demo's two HPAs on the same pods: platform/gateway and platform/gateway-legacy.
    const ambiguous = triage.groupByKey('HorizontalPodAutoscaler/AmbiguousSelector');
    await expect(ambiguous).toBeVisible();
    const count = await triage.groups.count();
    for (let i = 0; i < count; i++) {
      await expect(triage.groups.nth(i).getByRole('definition').filter({ hasText: 'prod-eu-west-1' })).toHaveCount(1);
    }

    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(page).not.toHaveURL(/kind=|cluster=|q=/);
    await expect(triage.search).toHaveValue('');
    expect(errors).toEqual([]);
  });

  test('keyboard: / focuses search, j/k move, Enter expands a group and opens an autoscaler', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const triage = new TriagePage(page);
    await triage.goto('?kind=HorizontalPodAutoscaler&cluster=prod-eu-west-1&q=gateway');
    const ambiguous = triage.groupByKey('HorizontalPodAutoscaler/AmbiguousSelector');
    await expect(ambiguous).toBeVisible();

    await page.locator('body').press('/');
    await expect(triage.search).toBeFocused();
    await triage.search.press('Escape');
    await expect(triage.search).not.toBeFocused();

    await page.keyboard.press('j');
    await expect(triage.toggle(triage.groups.first())).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/group=/);
    await expect(triage.toggle(triage.groups.first())).toHaveAttribute('aria-expanded', 'true');
    await expect(triage.members.first()).toBeVisible();
    await page.keyboard.press('j');
    await expect(triage.members.first()).toBeFocused();
    await page.keyboard.press('j');
    await expect(triage.members.nth(1)).toBeFocused();
    await page.keyboard.press('k');
    await expect(triage.members.first()).toBeFocused();
    expect(errors).toEqual([]);

    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/autoscalers\/prod-eu-west-1\/HorizontalPodAutoscaler\/platform\/gateway/);
  });

  test('a click on an autoscaler row reaches its page', async ({ page }) => {
    const triage = new TriagePage(page);
    await triage.goto(`?group=${encodeURIComponent('HorizontalPodAutoscaler/AmbiguousSelector')}`);
    await expect(triage.members.first()).toBeVisible();
    await triage.members.first().getByRole('link').click();
    await expect(page).toHaveURL(/\/autoscalers\/prod-eu-west-1\/HorizontalPodAutoscaler\/platform\/gateway(-legacy)?$/);
  });
});
