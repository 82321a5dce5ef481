import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { AutoscalerListResponseSchema } from '@/lib/api/fleet';
import type { AutoscalerRefParts } from './pages/autoscaler';
import { AutoscalerPage } from './pages/autoscaler';
import { TriagePage } from './pages/triage';
import { setEpisode } from './sim-admin';
import { collectConsoleErrors, expectNoSeriousAxeViolations } from './checks';

/** The first autoscaler of a kind the API lists (optionally in one cluster). */
async function firstOfKind(request: APIRequestContext, kind: AutoscalerRefParts['kind'], cluster?: string): Promise<AutoscalerRefParts> {
  const url = `/api/v1/autoscalers?kind=${kind}${cluster ? `&cluster=${encodeURIComponent(cluster)}` : ''}&limit=5`;
  // Right after the server starts the fleet may still be syncing (503 not_ready).
  await expect.poll(async () => (await request.get(url)).status(), { timeout: 30_000 }).toBe(200);
  const first = AutoscalerListResponseSchema.parse(await (await request.get(url)).json()).items[0];
  if (!first) throw new Error(`the demo fleet has no ${kind}`);
  return { cluster: first.cluster, kind: first.kind, namespace: first.namespace, name: first.name };
}

const kinds = ['HorizontalPodAutoscaler', 'MachineAutoscaler', 'FederatedHPA'] as const;
const duplicate: AutoscalerRefParts = {
  cluster: 'ocp-prod-east',
  kind: 'MachineAutoscaler',
  namespace: 'openshift-machine-api',
  name: 'worker-us-east-1b-extra',
};
const lanesOf: Record<AutoscalerRefParts['kind'], string[]> = {
  HorizontalPodAutoscaler: ['AbleToScale', 'ScalingActive', 'ScalingLimited'],
  FederatedHPA: ['AbleToScale', 'ScalingActive', 'ScalingLimited'],
  MachineAutoscaler: ['Ready'],
};

test.describe('Autoscaler page', () => {
  for (const kind of kinds) {
    test(`a ${kind} page loads without console errors, with its lanes in order, its panels, and no serious axe violations`, async ({
      page,
      request,
    }) => {
      const errors = collectConsoleErrors(page);
      const ref = await firstOfKind(request, kind);
      const detail = new AutoscalerPage(page);
      await detail.goto(ref);
      await expect(detail.heading).toHaveText(ref.name);
      await expect(detail.root).toHaveAttribute('data-kind', kind);

      const lanes = detail.timeline.getByTestId('timeline-lane');
      await expect(lanes.first()).toBeVisible();
      const types = await lanes.evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
      expect(types.slice(0, lanesOf[kind].length)).toEqual(lanesOf[kind]);
      await expect(detail.eventLane).toBeVisible();
      await expect(detail.replicasChart).toBeVisible();
      await expect(detail.kubectl.getByRole('button', { name: /^Copy command/ }).first()).toBeVisible();

      if (kind === 'MachineAutoscaler') await expect(detail.machineTarget).toBeVisible();
      else {
        // The explanation has settled: steps, or the route's error state, never a spinner forever.
        await expect(detail.explain.getByTestId('explain-steps').or(detail.explain.getByTestId('explain-error'))).toBeVisible();
        await expect(detail.metrics.getByTestId('metric-row').first()).toBeVisible();
      }
      if (kind === 'FederatedHPA') {
        await expect(detail.members.getByTestId('member-row').first()).toBeVisible();
        await expect(detail.members.getByRole('link', { name: 'Preview changes' })).toHaveAttribute('href', /^\/preview\/federation\?id=/);
      }

      await expectNoSeriousAxeViolations(page);
      expect(errors).toEqual([]);
    });
  }

  test.describe('while the metrics-outage episode runs', () => {
    test.beforeAll(async () => {
      await setEpisode('metrics-outage', 'start');
    });
    test.afterAll(async () => {
      await setEpisode('metrics-outage', 'schedule');
    });

    test('a click-through from triage reaches an HPA of prod-us-east-1 whose ScalingActive lane is False with FailedGetResourceMetric', async ({
      page,
    }) => {
      const errors = collectConsoleErrors(page);
      const triage = new TriagePage(page);
      await triage.goto(`?cluster=prod-us-east-1&group=${encodeURIComponent('HorizontalPodAutoscaler/FailedGetResourceMetric')}`);
      const member = triage.members.filter({ has: page.getByRole('cell', { name: 'prod-us-east-1', exact: true }) }).first();
      await expect(member).toBeVisible({ timeout: 45_000 });
      await member.getByRole('link').first().click();
      await expect(page).toHaveURL(/\/autoscalers\/prod-us-east-1\/HorizontalPodAutoscaler\/[^/]+\/[^/?]+/);

      const detail = new AutoscalerPage(page);
      // The latest one (the outage may have come and gone before, as scheduled).
      const failing = detail.segment('ScalingActive', 'False', 'FailedGetResourceMetric').last();
      await expect(failing).toBeVisible({ timeout: 45_000 });
      await expect(failing).toHaveAttribute('data-health', 'failing');
      await expect(detail.problems.getByTestId('problem').filter({ hasText: 'FailedGetResourceMetric' })).toBeVisible();

      // Focus (or hover) shows the exact reason, message and times.
      await failing.focus();
      const tooltip = page.getByRole('tooltip');
      await expect(tooltip).toContainText('ScalingActive=False');
      await expect(tooltip).toContainText('FailedGetResourceMetric');
      await expect(tooltip).toContainText('Duration');
      expect(errors).toEqual([]);
    });
  });

  test('the duplicate MachineAutoscaler shows Ready=False with MachineAutoscalerDuplicateTargetScaleRef, and its target diagram says why', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    const detail = new AutoscalerPage(page);
    await detail.goto(duplicate);
    await expect(detail.segment('Ready', 'False', 'MachineAutoscalerDuplicateTargetScaleRef').first()).toBeVisible();
    await expect(detail.health).toContainText('Failing');

    const derived = detail.machineTarget.getByTestId('derived-ready');
    await expect(derived).toHaveAttribute('data-status', 'False');
    await expect(derived).toHaveAttribute('data-reason', 'MachineAutoscalerDuplicateTargetScaleRef');
    await expect(detail.machineTarget.getByTestId('operator-ready')).toBeVisible();

    // It references the Machine API copy, which is authoritative but owned by the other MachineAutoscaler.
    const mapi = detail.machineTarget.getByTestId('copy-MachineAPI');
    await expect(mapi).toHaveAttribute('data-referenced', 'true');
    await expect(mapi).toHaveAttribute('data-authoritative', 'true');
    await expect(mapi.getByTestId('check-owner')).toHaveAttribute('data-health', 'failing');
    await expect(mapi.getByTestId('check-owner')).toContainText('owned by openshift-machine-api/worker-us-east-1b');
    await expect(detail.machineTarget.getByTestId('copy-ClusterAPI')).toHaveAttribute('data-referenced', 'false');
    expect(errors).toEqual([]);
  });

  test('the window and a brush zoom live in the URL and move the lanes and the chart together', async ({ page, request }) => {
    const errors = collectConsoleErrors(page);
    const ref = await firstOfKind(request, 'HorizontalPodAutoscaler', 'prod-us-east-1');
    const detail = new AutoscalerPage(page);
    await detail.goto(ref);
    await expect(detail.windowButton('6h')).toHaveAttribute('aria-pressed', 'true');
    await detail.windowButton('1h').click();
    await expect(page).toHaveURL(/window=1h/);
    await expect(detail.windowButton('1h')).toHaveAttribute('aria-pressed', 'true');

    const box = await detail.replicasChart.boundingBox();
    if (!box) throw new Error('no chart');
    await page.mouse.move(box.x + box.width * 0.5, box.y + 60);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.75, box.y + 60, { steps: 6 });
    await page.mouse.move(box.x + box.width * 0.98, box.y + 60, { steps: 6 });
    await page.mouse.up();
    await expect(page).toHaveURL(/from=.+&to=|to=.+&from=/);
    await expect(page.getByTestId('zoom-range')).toBeVisible();

    const url = new URL(page.url());
    const span = Date.parse(url.searchParams.get('to') ?? '') - Date.parse(url.searchParams.get('from') ?? '');
    // Roughly half of the hour was brushed.
    expect(span).toBeGreaterThan(20 * 60_000);
    expect(span).toBeLessThan(35 * 60_000);

    await page.reload();
    await expect(page.getByTestId('zoom-range')).toBeVisible();
    await expect(detail.timeline.getByTestId('timeline-lane').first()).toBeVisible();
    await page.getByRole('button', { name: 'Back to last 1h' }).click();
    await expect(page).not.toHaveURL(/from=/);
    await expect(page).toHaveURL(/window=1h/);
    expect(errors).toEqual([]);
  });

  test('when …/explain fails, the panel says so in words, with the cluster and a retry', async ({ page, request }) => {
    const ref = await firstOfKind(request, 'HorizontalPodAutoscaler', 'prod-us-east-1');
    let calls = 0;
    await page.route('**/explain', async (route) => {
      calls += 1;
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { code: 'cluster_unreachable', message: 'cluster prod-us-east-1 is unreachable', cluster: 'prod-us-east-1' },
        }),
      });
    });
    const detail = new AutoscalerPage(page);
    await detail.goto(ref);
    const error = detail.explain.getByTestId('explain-error');
    // An unreachable cluster is said as such, at once: the browser does not retry what the server knows is down.
    await expect(error).toContainText('The explanation reads pods and metrics live, and the cluster cannot be reached now.', {
      timeout: 10_000,
    });
    await expect(error).toContainText('cluster prod-us-east-1 is unreachable');
    await expect(error).toContainText('HTTP 503, cluster_unreachable');
    expect(calls).toBe(1);
    const before = calls;
    await error.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => calls).toBeGreaterThan(before);
    // The rest of the page does not depend on it.
    await expect(detail.timeline.getByTestId('timeline-lane').first()).toBeVisible();
  });

  test('copy buttons copy the kubectl command and say "Copied"', async ({ page, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const ref = await firstOfKind(request, 'FederatedHPA');
    const detail = new AutoscalerPage(page);
    await detail.goto(ref);
    // The button's name changes to "Copied: …", so it is found by its place, not its name.
    const copy = detail.kubectl.getByRole('listitem').first().getByTestId('copy');
    await expect(copy).toHaveText('Copy');
    await copy.click();
    await expect(copy).toHaveText('Copied');
    await expect(copy).toHaveAccessibleName(/^Copied: command/);
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    expect(clip).toContain(`kubectl --context ${ref.cluster}`);
  });

  test('screenshots of an HPA, a MachineAutoscaler and a FederatedHPA at 1440 and 1024, light and dark', async ({ page, request }) => {
    const errors = collectConsoleErrors(page);
    const refs = [
      await firstOfKind(request, 'HorizontalPodAutoscaler', 'prod-us-east-1'),
      duplicate,
      await firstOfKind(request, 'FederatedHPA'),
    ];
    const detail = new AutoscalerPage(page);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        for (const ref of refs) {
          await detail.goto(ref, '?window=1h');
          await expect(detail.replicasChart).toBeVisible();
          if (ref.kind !== 'MachineAutoscaler')
            await expect(detail.explain.getByTestId('explain-steps').or(detail.explain.getByTestId('explain-error'))).toBeVisible();
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
          await page.screenshot({ path: `e2e/artifacts/autoscaler-${ref.kind}-${width}-${colorScheme}.png`, fullPage: true });
        }
      }
    }
    expect(errors).toEqual([]);
  });
});
