import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { FederationPreviewPage } from './pages/preview-federation';
import { HpaPreviewPage } from './pages/preview-hpa';
import { collectConsoleErrors, expectNoSeriousAxeViolations } from './checks';

const artifacts = path.resolve(__dirname, 'artifacts');
const checkout = 'prod-eu-west-1/HorizontalPodAutoscaler/shop/checkout';
const catalog = 'karmada-global/FederatedHPA/api/catalog';

/** Full-page screenshots at 1440 and 1024, light and dark (the theme follows the system until toggled). */
async function screenshots(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await ready();
      await page.screenshot({ path: path.join(artifacts, `${name}-${width}-${colorScheme}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe('Previews', () => {
  test('the index links both previews with live starting points', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto('/preview');
    await expect(page.getByRole('heading', { level: 1, name: 'Previews' })).toBeVisible();
    const hpa = page.getByTestId('index-hpa');
    const federation = page.getByTestId('index-federation');
    await expect(hpa.getByRole('link', { name: 'HPA preview' })).toHaveAttribute('href', '/preview/hpa');
    await expect(federation.getByRole('link', { name: 'Federation preview' })).toHaveAttribute('href', '/preview/federation');
    await expect(hpa.getByRole('link', { name: 'shop/checkout' }).first()).toHaveAttribute('href', /\/preview\/hpa\?id=/);
    await expect(federation.getByRole('link', { name: 'api/catalog' })).toHaveAttribute(
      'href',
      `/preview/federation?id=${encodeURIComponent(catalog)}`,
    );
    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'preview-index', () => expect(federation.getByRole('link', { name: 'api/catalog' })).toBeVisible());
    expect(errors).toEqual([]);
  });

  test('the federation preview reproduces the seed DynamicWeighted example entered through the form, and keeps it across a reload', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    const fed = new FederationPreviewPage(page);
    await fed.goto();
    await expect(fed.heading).toBeVisible();
    await expect(fed.resultTable).toBeVisible();

    await fed.policy.selectOption({ label: 'DynamicWeighted (seed)' });
    await fed.federatedMin.fill('8');
    await fed.federatedMax.fill('24');
    await fed.fillClusters([
      { name: 'member1', Available: 1 },
      { name: 'member2', Available: 5 },
      { name: 'member3', Available: 2 },
    ]);

    const expected = { member1: [1, 3], member2: [5, 15], member3: [2, 6] } as const;
    for (const [cluster, [min, max]] of Object.entries(expected)) {
      await expect(fed.cell(cluster, 'min')).toHaveText(String(min), { useInnerText: true });
      await expect(fed.cell(cluster, 'max')).toHaveText(String(max), { useInnerText: true });
      await expect(fed.cell(cluster, 'after')).toHaveText(String(min), { useInnerText: true });
    }
    await expect(fed.seedNotes).toContainText('matches the proposal');
    await expect(fed.explanation).toContainText('Webster(24)');
    await expect(fed.shippedNote).toContainText('never merged');

    // The form lives in the URL: once the last edit is there, a reload shows the same inputs and result.
    await expect(page).toHaveURL(/fmax=24/);
    await expect(page).toHaveURL(/member3%7Ea2/);
    await page.reload();
    await expect(fed.federatedMin).toHaveValue('8');
    await expect(fed.federatedMax).toHaveValue('24');
    await expect(fed.policy).toHaveValue('seed:DynamicWeighted');
    await expect(fed.clusterInput(1, 'Available')).toHaveValue('5');
    await expect(fed.cell('member2', 'max')).toHaveText('15', { useInnerText: true });

    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'preview-federation', () => expect(fed.cell('member2', 'max')).toHaveText('15', { useInnerText: true }));
    expect(errors).toEqual([]);
  });

  test('the seed StaticWeighted example shows the note about the proposal’s 1/4/5', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const fed = new FederationPreviewPage(page);
    await fed.goto();
    await expect(fed.resultTable).toBeVisible();
    await fed.policy.selectOption({ label: 'StaticWeighted (seed)' });
    await fed.federatedMin.fill('2');
    await fed.federatedMax.fill('10');
    await fed.fillClusters([
      { name: 'member1', Weight: 1 },
      { name: 'member2', Weight: 2 },
      { name: 'member3', Weight: 3 },
    ]);
    await expect(fed.seedNotes).toContainText('1/4/5');
    await expect(fed.seedNotes).toContainText('no standard rounding rule');
    // Webster's split of max 10 by 1:2:3.
    await expect(fed.cell('member1', 'max')).toHaveText('2', { useInnerText: true });
    await expect(fed.cell('member2', 'max')).toHaveText('3', { useInnerText: true });
    await expect(fed.cell('member3', 'max')).toHaveText('5', { useInnerText: true });
    expect(errors).toEqual([]);
  });

  test('the federation preview starts from a live FederatedHPA with the shipped scheduler, and its tabs explain the seed operations', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    const fed = new FederationPreviewPage(page);
    await fed.goto(`?id=${encodeURIComponent(catalog)}`);
    await expect(fed.policy).toHaveValue('karmada:DynamicWeight');
    await expect(page.getByTestId('live-source')).toContainText('api/catalog');
    await expect(fed.resultTable.getByRole('columnheader', { name: 'Live binding' })).toBeVisible();
    await expect(fed.resultTable.getByTestId('result-row')).not.toHaveCount(0);
    await expect(fed.shippedNote).toContainText('karmada-scheduler');

    // An example fills every input a tab needs (the live binding has no per-cluster HPA bounds or utilization).
    await fed.loadExample('§4.7 Prioritized scale-down (all at 25 % of a 50 % target)');
    await expect(fed.tab('Prioritized scale-down')).toHaveAttribute('aria-selected', 'true');
    await expect(fed.cell('cluster3', 'after')).toHaveText('1', { useInnerText: true });
    await expect(fed.cell('cluster2', 'after')).toHaveText('4', { useInnerText: true });
    await expect(fed.seedNotes).toContainText('swapped');
    await expect(fed.explanation).toContainText('ceil(425 / 50) = 9');
    expect(errors).toEqual([]);
  });

  test('the HPA preview of checkout (pinned at max 6) shows TooManyReplicas before and a higher desired count after raising max to 20', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    const hpa = new HpaPreviewPage(page);
    await hpa.goto(checkout);
    await expect(hpa.heading).toBeVisible();
    await expect(hpa.beforeConditions).toContainText('TooManyReplicas');
    const before = await hpa.desired('before');
    expect(before).toBe(6);

    await hpa.maxReplicas.fill('20');
    await expect(hpa.diffRow('max').locator('[data-col="after"]')).toHaveText('20');
    await expect(hpa.afterConditions).not.toContainText('TooManyReplicas');
    await expect.poll(() => hpa.desired('after')).toBeGreaterThan(before);
    await expect(hpa.diffRow('desired')).toHaveAttribute('data-changed', 'true');
    await expect(hpa.playback).toBeVisible();
    await expect(hpa.assumptions).toContainText('controller');

    await expect(page).toHaveURL(/max=20/);
    await page.reload();
    await expect(hpa.maxReplicas).toHaveValue('20');
    await expect(hpa.diffRow('max').locator('[data-col="after"]')).toHaveText('20');
    await expect.poll(() => hpa.desired('after')).toBeGreaterThan(before);

    await expectNoSeriousAxeViolations(page);
    await screenshots(page, 'preview-hpa', () => expect(hpa.playback).toBeVisible());
    expect(errors).toEqual([]);
  });
});
