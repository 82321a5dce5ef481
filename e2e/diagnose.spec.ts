import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { parse } from 'yaml';
import { AutoscalerDetailResponseSchema, AutoscalerListResponseSchema, DiagnoseResponseSchema, ErrorBodySchema } from '@/lib/api';
import type { Autoscaler } from '@/lib/api';
import { collectConsoleErrors, expectNoSeriousAxeViolations } from './checks';
import { DiagnosePage } from './pages/diagnose';

/** The verdict the fleet view and a paste must agree on. */
function verdict(a: Autoscaler): unknown {
  return {
    name: a.name,
    namespace: a.namespace,
    health: a.health,
    problems: a.problems.map((p) => [p.code, p.severity]),
    conditions: a.conditions.map((c) => [c.type, c.status, c.reason, c.meaning]),
    replicas: [a.minReplicas, a.maxReplicas, a.currentReplicas, a.desiredReplicas],
    metrics: a.metrics,
  };
}

/** Demo HPAs of several healths, each with the YAML the server read from the simulator. */
async function demoHpas(request: APIRequestContext): Promise<{ fleet: Autoscaler; yaml: string }[]> {
  const url = '/api/v1/autoscalers?kind=HorizontalPodAutoscaler&limit=500';
  await expect.poll(async () => (await request.get(url)).status(), { timeout: 30_000 }).toBe(200);
  const items = AutoscalerListResponseSchema.parse(await (await request.get(url)).json()).items;
  const picked: Autoscaler[] = [];
  for (const health of ['failing', 'degraded', 'ok', 'unknown'] as const) {
    const one = items.find((a) => a.health === health && !a.stale);
    if (one) picked.push(one);
  }
  expect(picked.length).toBeGreaterThanOrEqual(2);
  const out: { fleet: Autoscaler; yaml: string }[] = [];
  for (const a of picked) {
    const path = `/api/v1/autoscalers/${encodeURIComponent(a.cluster)}/${a.kind}/${a.namespace}/${a.name}`;
    const detail = AutoscalerDetailResponseSchema.parse(await (await request.get(path)).json());
    out.push({ fleet: detail.autoscaler, yaml: detail.yaml });
  }
  return out;
}

test.describe('Diagnose a paste', () => {
  test('the API gives a demo object the fleet view’s verdict in YAML, JSON, a List and several documents', async ({ request }) => {
    for (const { fleet, yaml } of await demoHpas(request)) {
      const object: unknown = parse(yaml);
      const forms = {
        yaml,
        json: JSON.stringify(object, null, 2),
        list: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [object] }),
        documents: `apiVersion: v1\nkind: Service\nmetadata:\n  name: unrelated\n---\n${yaml}`,
      };
      for (const [form, text] of Object.entries(forms)) {
        const res = await request.post('/api/v1/diagnose', { data: text, headers: { 'content-type': 'text/plain' } });
        expect(res.status(), `${fleet.name} as ${form}`).toBe(200);
        const body = DiagnoseResponseSchema.parse(await res.json());
        expect(body.items, `${fleet.name} as ${form}`).toHaveLength(1);
        // The fleet has history (since), the paste none: the verdict itself must be the same.
        expect(verdict(body.items[0] as Autoscaler), `${fleet.name} as ${form}`).toEqual(verdict(fleet));
      }
    }
  });

  test('refuses credentials and oversized bodies with a JSON error that says why', async ({ request }) => {
    const secret = await request.post('/api/v1/diagnose', {
      data: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: aHVudGVyMg==\n',
      headers: { 'content-type': 'text/plain' },
    });
    expect(secret.status()).toBe(400);
    expect(ErrorBodySchema.parse(await secret.json()).error.message).toContain('a Secret object');
    const big = await request.post('/api/v1/diagnose', { data: 'x'.repeat(1024 * 1024 + 1), headers: { 'content-type': 'text/plain' } });
    expect(big.status()).toBe(413);
    expect(ErrorBodySchema.parse(await big.json()).error.code).toBe('payload_too_large');
  });

  test('the page: paste, read the same verdict as the fleet view; describe text; what the paste lacks', async ({ page, request }) => {
    const errors = collectConsoleErrors(page);
    const [first] = await demoHpas(request);
    if (!first) throw new Error('no demo HPA');
    const view = new DiagnosePage(page);
    await view.goto();
    await expect(view.heading).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Diagnose' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await view.diagnose(first.yaml);
    await expect(view.items).toHaveCount(1);
    expect(await view.shown(0)).toEqual({ health: first.fleet.health, problems: first.fleet.problems.map((p) => p.code) });

    // A describe paste that ends before the Conditions block: unknown, and it says so.
    await view.diagnose(
      [
        'Reference:      Deployment/web',
        'Metrics:        ( current / target )',
        '  resource cpu on pods  (as a percentage of request):  <unknown> / 50%',
        'Min replicas:   1',
        'Max replicas:   5',
      ].join('\n'),
    );
    await expect(view.items.first()).toHaveAttribute('data-health', 'unknown');
    await expect(view.unread).toContainText('no conditions in this paste: the verdict needs the Conditions block');

    await view.diagnose('kind: Secret\n');
    await expect(view.error).toContainText('Secret');

    await view.diagnose(first.yaml);
    await expect(view.items).toHaveCount(1);
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: test.info().outputPath(`diagnose-${width}.png`), fullPage: true });
    }
    await expectNoSeriousAxeViolations(page);
    // The refused Secret is the one expected failed request (the browser logs every 4xx).
    expect(errors.filter((e) => !/status of 400 .*\/api\/v1\/diagnose\)$/.test(e))).toEqual([]);
  });
});
