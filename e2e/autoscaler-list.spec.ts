import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AutoscalerListResponseSchema } from '@/lib/api/fleet';
import { AutoscalerListPage } from './pages/autoscaler-list';
import { collectConsoleErrors, expectNoSeriousAxeViolations } from './checks';

const artifacts = path.resolve(__dirname, 'artifacts');

test.describe('Autoscaler list', () => {
  test('lists every autoscaler, healthy ones too, with the API’s total, and passes axe', async ({ page, request }) => {
    const errors = collectConsoleErrors(page);
    const list = new AutoscalerListPage(page);
    await list.goto();
    await expect(list.heading).toBeVisible();
    // The demo's duplicate-worker-1a episode creates and deletes a MachineAutoscaler (81 ↔ 82), so the count can
    // change between the API's answer and the page's: they must agree at some moment, the API asked again each try.
    await expect(async () => {
      const api = AutoscalerListResponseSchema.parse(await (await request.get('/api/v1/autoscalers?limit=1')).json());
      await expect(list.summary).toContainText(`${api.total} autoscalers in the fleet`, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(list.rows.first()).toBeVisible();
    // Worst first: the first row is not a healthy one while anything is broken.
    await expect(list.rows.first().locator('[data-health]').first()).not.toHaveAttribute('data-health', 'ok');
    await expectNoSeriousAxeViolations(page);
    expect(errors).toEqual([]);
  });

  test('search, kind and sort live in the URL and survive a reload; the keyboard opens a row', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const list = new AutoscalerListPage(page);
    await list.goto();
    await list.kind.selectOption('HorizontalPodAutoscaler');
    await expect(page).toHaveURL(/kind=HorizontalPodAutoscaler/);
    await list.sort.selectOption('name');
    await expect(page).toHaveURL(/sort=name/);
    await list.search.fill('checkout');
    await expect(page).toHaveURL(/q=checkout/);
    await expect(list.summary).toContainText('autoscalers match');
    await page.reload();
    await expect(list.kind).toHaveValue('HorizontalPodAutoscaler');
    await expect(list.sort).toHaveValue('name');
    await expect(list.search).toHaveValue('checkout');
    await expect(list.rows.first()).toContainText('checkout');
    const names = await list.rows.getByRole('link').allTextContents();
    expect(names.length).toBeGreaterThan(1);
    expect(names.every((n) => n.includes('checkout'))).toBe(true);

    // Focus on nothing in particular: a click on the heading (a click on the body's centre can land on a row).
    await list.heading.click();
    await page.keyboard.press('j');
    await expect(list.rows.first()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/autoscalers\/[^/]+\/HorizontalPodAutoscaler\/[^/]+\/checkout/);
    expect(errors).toEqual([]);
  });

  test('screenshots at 1440 and 1024, light and dark', async ({ page }) => {
    mkdirSync(artifacts, { recursive: true });
    const list = new AutoscalerListPage(page);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await list.goto();
        await expect(list.rows.first()).toBeVisible();
        await page.screenshot({ path: path.join(artifacts, `autoscaler-list-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
  });
});
