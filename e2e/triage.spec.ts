import { expect, test } from '@playwright/test';
import type { Route } from '@playwright/test';
import type { Autoscaler, AutoscalerRowListResponse, ClusterListResponse, TriageResponse } from '@/lib/api';
import { toAutoscalerRow } from '@/lib/api';
import { TriagePage } from './pages/triage';
import { setEpisode } from './sim-admin';
import { collectConsoleErrors, expectNoSeriousAxeViolations } from './checks';

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
      test.setTimeout(150_000);
      const errors = collectConsoleErrors(page);
      const triage = new TriagePage(page);
      await triage.goto();
      await expect(triage.heading).toBeVisible();
      // The stream refreshes the queue as the informers see the outage. The cause needs every resource-metric HPA
      // of the cluster failing at once; multi-metric HPAs that still scale on their other metric come and go.
      const group = triage.groupWithCause('prod-us-east-1');
      await expect(group.first()).toBeVisible({ timeout: 100_000 });
      await expect(group.first().getByTestId('likely-cause')).toContainText('metrics API unavailable in cluster prod-us-east-1');

      const outage = triage.groupByKey(outageGroup);
      await triage.toggle(outage).click();
      await expect(page).toHaveURL(new RegExp(`group=${encodeURIComponent(outageGroup)}`));
      await expect(triage.toggle(outage)).toHaveAttribute('aria-expanded', 'true');
      await expect(triage.members.first()).toBeVisible();
      const rowCount = await triage.members.count();
      expect(rowCount).toBeGreaterThan(1);
      await expect(triage.members.getByRole('cell').filter({ hasText: /^prod-us-east-1$/ })).toHaveCount(rowCount);

      await expectNoSeriousAxeViolations(page);
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

  test('a link with parameters the API refuses says so and offers to clear them, not to retry', async ({ page }) => {
    const triage = new TriagePage(page);
    await triage.goto('?kind=Foo&health=sick');
    const alert = page.getByRole('alert').filter({ hasText: 'not valid' });
    await expect(alert).toContainText('This view’s parameters are not valid.');
    await expect(alert).toContainText('invalid kind');
    await expect(alert.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    await alert.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).not.toHaveURL(/kind=|health=/);
    await expect(triage.groups.first()).toBeVisible();
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
    // Escape leaves the search and keeps the filter.
    await expect(triage.search).toHaveValue('gateway');
    await expect(page).toHaveURL(/q=gateway/);

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

/** A fleet too large for the simulator on a CI machine, served to the page as the API would. */
function largeOutage(count: number, noise: number): { clusters: ClusterListResponse; triage: TriageResponse; items: Autoscaler[] } {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const status = { name: 'scale-1', state: 'synced' as const, lastSyncAt: at, since: at, error: null, errorRate: 0, lastAnsweredAt: at };
  const items: Autoscaler[] = [];
  const step = Math.floor((count + noise) / noise);
  for (let i = 0; i < count + noise; i++) {
    // `noise` members fail for a reason of their own (a missing request): lib/triage groups them apart.
    const own = i % step === Math.floor(step / 2);
    const name = `svc-${String(i).padStart(5, '0')}`;
    const namespace = `team-${i % 8}`;
    items.push({
      id: `scale-1/HorizontalPodAutoscaler/${namespace}/${name}`,
      cluster: 'scale-1',
      kind: 'HorizontalPodAutoscaler',
      namespace,
      name,
      uid: `uid-${i}`,
      target: { apiVersion: 'apps/v1', kind: 'Deployment', name, namespace },
      minReplicas: 1,
      maxReplicas: 10,
      currentReplicas: 2 + (i % 5),
      desiredReplicas: 2 + (i % 5),
      conditions: [],
      metrics: [],
      health: 'failing',
      problems: [
        {
          code: 'FailedGetResourceMetric',
          severity: 'error',
          title: 'Cannot read a resource metric',
          message: own
            ? `missing request for cpu in container app of Pod ${name}-0`
            : 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
          since: at,
          hint: 'check metrics-server',
        },
      ],
      stale: false,
      createdAt: at,
      lastScaleTime: null,
    });
  }
  const totals = { total: count + noise, failing: count + noise, degraded: 0, ok: 0, unknown: 0 };
  return {
    clusters: {
      clusters: [
        {
          ...status,
          kind: 'kubernetes',
          server: null,
          kubernetesVersion: 'v1.33.2',
          parent: null,
          capabilities: ['metrics'],
          forbiddenResources: [],
          counts: {
            total: count + noise,
            byKind: { HorizontalPodAutoscaler: count + noise, MachineAutoscaler: 0, FederatedHPA: 0 },
            byHealth: { failing: count + noise, degraded: 0, ok: 0, unknown: 0 },
          },
        },
      ],
      generatedAt: new Date().toISOString(),
    },
    triage: {
      groups: [
        {
          key: 'HorizontalPodAutoscaler/FailedGetResourceMetric',
          kind: 'HorizontalPodAutoscaler',
          reason: 'FailedGetResourceMetric',
          title: 'Cannot read a resource metric',
          count,
          clusters: ['scale-1'],
          namespaces: Array.from({ length: 8 }, (_, i) => `team-${i}`),
          oldestSince: at,
          worstSeverity: 'error',
          likelyCause: 'metrics API unavailable in cluster scale-1: every HPA with a resource metric there fails to read it',
          hint: 'kubectl --context scale-1 get apiservice v1beta1.metrics.k8s.io',
          sampleIds: [],
        },
      ],
      totals,
      clusters: [status],
      generatedAt: new Date().toISOString(),
    },
    items,
  };
}

test.describe('Triage at scale', () => {
  test('10,000 failing autoscalers in one group: pages load while scrolling, the DOM keeps a window of rows', async ({ page }) => {
    test.setTimeout(150_000);
    const errors = collectConsoleErrors(page);
    const count = 10_000;
    const noise = 10;
    const fleet = largeOutage(count, noise);
    let listRequests = 0;
    let wholeDtoRequests = 0;
    const json = (route: Route, body: unknown): Promise<void> =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    // The stream would invalidate these mocked answers with the demo fleet's changes: keep it quiet.
    await page.route('**/api/v1/stream', (route) =>
      route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 600000\n\n' }),
    );
    await page.route('**/api/v1/clusters', (route) => json(route, fleet.clusters));
    await page.route('**/api/v1/triage*', (route) => json(route, fleet.triage));
    await page.route('**/api/v1/autoscalers?*', (route) => {
      listRequests++;
      const url = new URL(route.request().url());
      const offset = Number(url.searchParams.get('cursor') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const end = Math.min(offset + limit, fleet.items.length);
      // The tables ask for rows (`fields=row`); answered as the server would.
      if (url.searchParams.get('fields') !== 'row') wholeDtoRequests++;
      const body: AutoscalerRowListResponse = {
        items: fleet.items.slice(offset, end).map(toAutoscalerRow),
        total: fleet.items.length,
        nextCursor: end < fleet.items.length ? String(end) : null,
        clusters: fleet.triage.clusters,
        generatedAt: new Date().toISOString(),
      };
      return json(route, body);
    });

    const triage = new TriagePage(page);
    await triage.goto(`?group=${encodeURIComponent('HorizontalPodAutoscaler/FailedGetResourceMetric')}`);
    await expect(triage.groupWithCause('scale-1')).toBeVisible();
    await expect(triage.members.first()).toBeVisible();

    // Scroll like a wheel (200 px a frame) and record frame gaps, then fling to the end until every page is in;
    // count the rows in the DOM all along.
    const stats = await page.evaluate(async () => {
      const rowsInDom = (): number => document.querySelectorAll('[data-testid="group-member"]').length;
      const foot = (): string => (document.querySelector('[data-testid="group-members"]')?.nextElementSibling?.textContent ?? '').trim();
      const frame = (): Promise<number> => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      const percentile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)] ?? 0;
      let maxRows = 0;
      const idle: number[] = [];
      let last = await frame();
      for (let i = 0; i < 30; i++) {
        const now = await frame();
        idle.push(now - last);
        last = now;
      }
      const wheel: number[] = [];
      for (let i = 0; i < 150; i++) {
        window.scrollBy(0, 200);
        const now = await frame();
        wheel.push(now - last);
        last = now;
        maxRows = Math.max(maxRows, rowsInDom());
      }
      const started = performance.now();
      while (performance.now() - started < 100_000) {
        window.scrollBy(0, 2400);
        await frame();
        maxRows = Math.max(maxRows, rowsInDom());
        if (/^Showing 10000 of 10000$/.test(foot()) && window.innerHeight + window.scrollY >= document.body.scrollHeight - 2) break;
      }
      return {
        idleP50: percentile(idle, 0.5),
        wheelP50: percentile(wheel, 0.5),
        wheelP95: percentile(wheel, 0.95),
        flingMs: Math.round(performance.now() - started),
        maxRows,
        foot: foot(),
      };
    });
    test.info().annotations.push({ type: 'scroll', description: JSON.stringify(stats) });
    console.info(`[triage at scale] ${JSON.stringify(stats)}; ${listRequests} list requests`);

    expect(stats.foot).toBe(`Showing ${count} of ${count}`);
    expect(stats.maxRows).toBeGreaterThan(10);
    expect(stats.maxRows).toBeLessThan(100);
    // The last member is in the DOM at the bottom, and the ten with a cause of their own are not in the group.
    await expect(page.getByRole('link', { name: `svc-${String(count + noise - 1).padStart(5, '0')}`, exact: true })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'missing request' })).toHaveCount(0);
    expect(listRequests).toBeGreaterThanOrEqual(Math.ceil(count / 500));
    expect(wholeDtoRequests).toBe(0);
    expect(errors).toEqual([]);
  });
});
