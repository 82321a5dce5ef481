import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AutoscalerDetailResponseSchema,
  AutoscalerListResponseSchema,
  AutoscalerRowListResponseSchema,
  ClusterListResponseSchema,
  ErrorBodySchema,
  MeResponseSchema,
  StatsResponseSchema,
  StreamMessageSchema,
  TransitionsResponseSchema,
  TriageResponseSchema,
} from '@/lib/api';
import type { StreamMessage } from '@/lib/api';
import { startSimulator } from '@/sim/index';
import { startTestProvider } from '@/sim/identity/test-provider';
import type { TestProvider } from '@/sim/identity/test-provider';
import type { World } from '@/sim/world/world';
import * as clustersRoute from '@/app/api/v1/clusters/route';
import * as listRoute from '@/app/api/v1/autoscalers/route';
import * as detailRoute from '@/app/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/route';
import * as historyRoute from '@/app/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/history/route';
import * as explainRoute from '@/app/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/explain/route';
import * as fedInputsRoute from '@/app/api/v1/autoscalers/[cluster]/[kind]/[namespace]/[name]/federation-preview/route';
import * as triageRoute from '@/app/api/v1/triage/route';
import * as transitionsRoute from '@/app/api/v1/transitions/route';
import * as statsRoute from '@/app/api/v1/stats/route';
import * as streamRoute from '@/app/api/v1/stream/route';
import * as meRoute from '@/app/api/v1/me/route';
import * as previewHpaRoute from '@/app/api/v1/preview/hpa/route';
import * as previewFedRoute from '@/app/api/v1/preview/federation/[operation]/route';
import * as readyRoute from '@/app/api/readyz/route';
import * as loginRoute from '@/app/auth/login/route';
import * as callbackRoute from '@/app/auth/callback/route';
import * as logoutRoute from '@/app/auth/logout/route';
import { loadConnections } from '@/server/clusters/connections';
import { Access, installAccess } from '@/server/access/access';
import { readAccessConfig } from '@/server/access/config';
import { answerFast } from '@/server/http/fast-path';
import { sharedAnswersOf } from '@/server/http/shared-answers';
import { Autoscope, installAutoscope } from '@/server/runtime';
import { captureConsole, demoFleetSynced } from './harness';
import { until } from './until';

/**
 * Access control end to end, without a browser: a real OpenID Connect provider (oidc-provider) on 127.0.0.1,
 * the sign-in flow through its login form, and every data route and the stream for three people — a web
 * team member, a platform team member, and a contractor no rule names — then the trusted-proxy mode with
 * JWTs signed by a key of a JWKS served on 127.0.0.1 (and tokens that must be refused).
 */
const providerPort = 3252;
const jwksPort = 3253;
const base = 'http://127.0.0.1:3251';
const logLines: string[] = [];

let world: World;
let app: Autoscope;
let provider: TestProvider;
let access: Access;
let dataDir: string;

const policy = `defaultRole: none
rules:
  - name: web team
    groups: [team-web]
    clusters: ["prod-*"]
    namespaces: [shop, payments]
  - name: platform team
    groups: [team-platform]
    clusters: ["ocp-*", "karmada-global", "karmada-global/*"]
`;

type Handler = (req: NextRequest, c: never) => Promise<Response>;
type Ctx = { params: Promise<Record<string, string>> };

async function call(
  handler: Handler,
  url: string,
  headers: Record<string, string> = {},
  params: Record<string, string> = {},
  init: { method?: string; body?: string } = {},
): Promise<{ status: number; json: unknown; text: string; headers: Headers }> {
  const req = new NextRequest(`${base}${url}`, {
    method: init.method ?? 'GET',
    headers: { ...headers, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body,
  });
  const res = await handler(req, { params: Promise.resolve(params) } satisfies Ctx as never);
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** The cookies a response sets, name → value. */
function setCookies(headers: Headers): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of headers.getSetCookie()) {
    const [pair] = c.split(';');
    const eq = pair?.indexOf('=') ?? -1;
    if (pair && eq > 0) out.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return out;
}

/** The provider side of the flow, as a browser would do it: its cookies, its login form, its redirects. */
async function signInAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = (): string => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    for (const [k, v] of setCookies(res.headers)) jar.set(k, v);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.startsWith(`${base}/auth/callback`)) return next;
      url = next;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no form at ${url} (${res.status})`);
    url = new URL(action, url).href;
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }).toString();
  }
  throw new Error('too many hops at the provider');
}

/** The whole sign-in: Autoscope's /auth/login, the provider, Autoscope's /auth/callback; the session cookie header. */
async function signIn(login: string, returnTo = '/'): Promise<{ cookie: string; location: string }> {
  const start = await call(loginRoute.GET, `/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  expect(start.status).toBe(302);
  const state = setCookies(start.headers).get('autoscope_login');
  expect(state).toBeTruthy();
  const callbackUrl = await signInAtProvider(start.headers.get('location') ?? '', login);
  const done = await call(callbackRoute.GET, callbackUrl.slice(base.length), { cookie: `autoscope_login=${state}` });
  expect(done.status).toBe(303);
  const session = setCookies(done.headers).get('autoscope_session');
  expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(done.headers.getSetCookie().find((c) => c.startsWith('autoscope_session='))).toMatch(/HttpOnly; Secure; SameSite=Lax/);
  return { cookie: `autoscope_session=${session}`, location: done.headers.get('location') ?? '' };
}

function errorOf(json: unknown): { code: string; message: string } {
  return ErrorBodySchema.parse(json).error;
}

const people: Record<'alice' | 'bob' | 'carol', { cookie: string }> = { alice: { cookie: '' }, bob: { cookie: '' }, carol: { cookie: '' } };
const as = (who: keyof typeof people): Record<string, string> => ({ cookie: people[who].cookie });

beforeAll(async () => {
  captureConsole(logLines);
  world = await startSimulator({ scenario: 'demo', speed: 20, dataDir: mkdtempSync(path.join(os.tmpdir(), 'access-sim-')) });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'access-data-'));
  provider = await startTestProvider({
    port: providerPort,
    redirectUris: [`${base}/auth/callback`],
    postLogoutRedirectUris: [`${base}/auth/signed-out`],
  });
  const secretFile = path.join(dataDir, 'client-secret');
  writeFileSync(secretFile, `${provider.clientSecret}\n`);
  const policyFile = path.join(dataDir, 'policy.yaml');
  writeFileSync(policyFile, policy);
  access = new Access(
    readAccessConfig({
      HOST: '0.0.0.0',
      AUTOSCOPE_AUTH: 'oidc',
      AUTOSCOPE_OIDC_ISSUER: provider.issuer,
      AUTOSCOPE_OIDC_CLIENT_ID: provider.clientId,
      AUTOSCOPE_OIDC_CLIENT_SECRET_FILE: secretFile,
      AUTOSCOPE_OIDC_REDIRECT_URL: `${base}/auth/callback`,
      AUTOSCOPE_POLICY_FILE: policyFile,
    }),
    dataDir,
  );
  installAccess(access);
  app = new Autoscope({ dataDir, retentionDays: 30 }, loadConnections({ KUBECONFIG: world.fleet.kubeconfigPath }));
  installAutoscope(app);
  await demoFleetSynced(app);
  for (const who of ['alice', 'bob', 'carol'] as const) people[who] = await signIn(who);
});

afterAll(async () => {
  await app.stop();
  access.close();
  installAutoscope(undefined);
  installAccess(undefined);
  await provider.stop();
  await world.stop();
  vi.restoreAllMocks();
});

describe('OIDC sign-in with a real provider', () => {
  it('comes back to the deep link it started from, and /api/v1/me names the person and their groups', async () => {
    const { cookie, location } = await signIn('alice', '/triage?cluster=prod-us-east-1&health=failing');
    expect(location).toBe(`${base}/triage?cluster=prod-us-east-1&health=failing`);
    const me = MeResponseSchema.parse((await call(meRoute.GET, '/api/v1/me', { cookie })).json);
    expect(me).toMatchObject({
      mode: 'oidc',
      user: { name: 'Alice Example', email: 'alice@example.com', groups: ['team-web'] },
      rules: ['web team'],
      seesAll: false,
      signOutPath: '/auth/logout',
    });
  });

  it('a returnTo that leaves the site comes back to / instead', async () => {
    expect((await signIn('alice', 'https://evil.example/')).location).toBe(`${base}/`);
    expect((await signIn('alice', '//evil.example/x')).location).toBe(`${base}/`);
  });

  it('refuses a callback whose state is not this browser’s, or replayed', async () => {
    const start = await call(loginRoute.GET, '/auth/login');
    const state = setCookies(start.headers).get('autoscope_login') ?? '';
    const callbackUrl = await signInAtProvider(start.headers.get('location') ?? '', 'alice');
    const otherBrowser = await call(callbackRoute.GET, callbackUrl.slice(base.length), { cookie: 'autoscope_login=someone-else' });
    expect(otherBrowser.status).toBe(401);
    // A mismatch is refused before the state is looked up: the right browser still completes, once.
    const once = await call(callbackRoute.GET, callbackUrl.slice(base.length), { cookie: `autoscope_login=${state}` });
    expect(once.status).toBe(303);
    const replay = await call(callbackRoute.GET, callbackUrl.slice(base.length), { cookie: `autoscope_login=${state}` });
    expect(replay.status).toBe(401);
    expect(errorOf(replay.json).code).toBe('unauthenticated');
  });

  it('every data route answers 401 without a session, with a tampered cookie, or after sign-out', async () => {
    const { cookie } = await signIn('bob');
    const tampered = cookie.slice(0, -1) + (cookie.endsWith('A') ? 'B' : 'A');
    for (const headers of [{}, { cookie: tampered }, { cookie: 'autoscope_session=not-a-session' }] as Record<string, string>[]) {
      for (const [handler, url] of [
        [clustersRoute.GET, '/api/v1/clusters'],
        [listRoute.GET, '/api/v1/autoscalers'],
        [triageRoute.GET, '/api/v1/triage'],
        [transitionsRoute.GET, '/api/v1/transitions'],
        [statsRoute.GET, '/api/v1/stats'],
        [streamRoute.GET, '/api/v1/stream'],
        [meRoute.GET, '/api/v1/me'],
      ] as [Handler, string][]) {
        const res = await call(handler, url, headers);
        expect([url, res.status]).toEqual([url, 401]);
        expect(errorOf(res.json).code).toBe('unauthenticated');
      }
    }
    expect((await call(clustersRoute.GET, '/api/v1/clusters', { cookie })).status).toBe(200);
    const out = await call(logoutRoute.POST, '/auth/logout', { cookie }, {}, { method: 'POST' });
    expect(out.status).toBe(303);
    // The provider has an end-session endpoint: sign-out goes there, and comes back to /auth/signed-out.
    const endSession = new URL(out.headers.get('location') ?? '');
    expect(endSession.origin).toBe(provider.issuer);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/auth/signed-out`);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('autoscope_session='))).toMatch(/Max-Age=0/);
    expect((await call(clustersRoute.GET, '/api/v1/clusters', { cookie })).status).toBe(401);
  });

  it('readyz answers probes without a session: the status, and no cluster names', async () => {
    const anonymous = await call(readyRoute.GET, '/api/readyz');
    expect(anonymous.status).toBe(200);
    expect(anonymous.json).toEqual({ ready: true, clusters: [] });
    const bob = (await call(readyRoute.GET, '/api/readyz', as('bob'))).json as { clusters: { name: string }[] };
    expect(bob.clusters.map((c) => c.name)).toEqual([
      'karmada-global',
      'karmada-global/member-ap',
      'karmada-global/member-eu',
      'karmada-global/member-us',
      'ocp-prod-east',
    ]);
  });
});

describe('what each person sees', () => {
  it('clusters: each team its own; a cluster outside the policy does not exist; counts are of what they may see', async () => {
    const alice = ClusterListResponseSchema.parse((await call(clustersRoute.GET, '/api/v1/clusters', as('alice'))).json).clusters;
    const bob = ClusterListResponseSchema.parse((await call(clustersRoute.GET, '/api/v1/clusters', as('bob'))).json).clusters;
    const carol = ClusterListResponseSchema.parse((await call(clustersRoute.GET, '/api/v1/clusters', as('carol'))).json).clusters;
    expect(alice.map((c) => c.name)).toEqual(['prod-eu-west-1', 'prod-us-east-1']);
    expect(bob.map((c) => c.name)).toEqual([
      'karmada-global',
      'karmada-global/member-ap',
      'karmada-global/member-eu',
      'karmada-global/member-us',
      'ocp-prod-east',
    ]);
    expect(carol).toEqual([]);
    // prod-eu-west-1 has 8 shop and 5 payments HPAs of its 29 (sim/scenarios/demo.yaml).
    expect(alice.find((c) => c.name === 'prod-eu-west-1')?.counts.total).toBe(13);
    expect(bob.find((c) => c.name === 'ocp-prod-east')?.counts.byKind).toEqual({
      HorizontalPodAutoscaler: 6,
      MachineAutoscaler: 10,
      FederatedHPA: 0,
    });
  });

  it('list and exports: only the allowed clusters and namespaces; an invisible cluster in a filter is an unknown cluster', async () => {
    const list = AutoscalerListResponseSchema.parse((await call(listRoute.GET, '/api/v1/autoscalers?limit=500', as('alice'))).json);
    expect(list.total).toBeGreaterThan(0);
    expect(new Set(list.items.map((a) => a.cluster))).toEqual(new Set(['prod-eu-west-1', 'prod-us-east-1']));
    expect(new Set(list.items.map((a) => a.namespace))).toEqual(new Set(['shop', 'payments']));
    expect(list.clusters.map((c) => c.name)).toEqual(['prod-eu-west-1', 'prod-us-east-1']);

    const csv = await call(listRoute.GET, '/api/v1/autoscalers?format=csv', as('alice'));
    expect(csv.status).toBe(200);
    const rows = csv.text.trim().split('\n').slice(1);
    expect(rows).toHaveLength(list.total);
    expect(rows.every((r) => /prod-(eu-west|us-east)-1/.test(r) && /,(shop|payments),/.test(r))).toBe(true);
    const json = JSON.parse((await call(listRoute.GET, '/api/v1/autoscalers?format=json', as('bob'))).text) as {
      items: { cluster: string }[];
      clusters: { name: string }[];
    };
    expect(json.items.every((a) => a.cluster === 'ocp-prod-east' || a.cluster.startsWith('karmada-global'))).toBe(true);
    expect(json.clusters.some((c) => c.name.startsWith('prod-'))).toBe(false);
    expect((await call(listRoute.GET, '/api/v1/autoscalers?format=json', as('carol'))).text).toContain('"total": 0');

    // Free text searches only what the person may see: a term every HPA matches (its kind) finds each one's own.
    const search = (who: 'alice' | 'bob', query: string) =>
      call(listRoute.GET, `/api/v1/autoscalers?${query}&limit=500`, as(who)).then((r) => AutoscalerListResponseSchema.parse(r.json));
    for (const who of ['alice', 'bob'] as const) {
      const found = await search(who, 'q=HorizontalPod');
      const byKind = await search(who, 'kind=HorizontalPodAutoscaler');
      expect(found.total).toBeGreaterThan(0);
      expect(found.items.map((a) => a.id).sort()).toEqual(byKind.items.map((a) => a.id).sort());
    }
    const aliceFound = await search('alice', 'q=HorizontalPod');
    expect(aliceFound.items.every((a) => /^prod-(eu-west|us-east)-1$/.test(a.cluster) && /^(shop|payments)$/.test(a.namespace))).toBe(true);
    expect((await search('bob', 'q=HorizontalPod')).items.some((a) => a.cluster.startsWith('prod-'))).toBe(false);

    // The tables' pages (`fields=row`) are the same pages: each person their own rows, nobody else's.
    const rowsOf = (who: 'alice' | 'bob' | 'carol') =>
      call(listRoute.GET, '/api/v1/autoscalers?limit=500&fields=row', as(who)).then((r) => AutoscalerRowListResponseSchema.parse(r.json));
    const full = { alice: list, bob: await search('bob', 'sort=health') };
    for (const who of ['alice', 'bob'] as const) {
      const rows = await rowsOf(who);
      expect(rows.total).toBe(full[who].total);
      expect(rows.items.map((r) => r.id).sort()).toEqual(full[who].items.map((a) => a.id).sort());
      expect(rows.clusters.map((c) => c.name)).toEqual(full[who].clusters.map((c) => c.name));
    }
    const aliceRows = new Set((await rowsOf('alice')).items.map((r) => r.id));
    expect((await rowsOf('bob')).items.some((r) => aliceRows.has(r.id))).toBe(false);
    expect((await rowsOf('carol')).total).toBe(0);

    const hidden = await call(listRoute.GET, '/api/v1/autoscalers?cluster=ocp-prod-east', as('alice'));
    const missing = await call(listRoute.GET, '/api/v1/autoscalers?cluster=no-such-cluster', as('alice'));
    expect(hidden.status).toBe(400);
    expect(errorOf(hidden.json).message).toBe('unknown cluster "ocp-prod-east"');
    expect(errorOf(missing.json).message).toBe('unknown cluster "no-such-cluster"');
  });

  it('triage: groups and totals over what the person may see; nothing for someone no rule names', async () => {
    const all = TriageResponseSchema.parse((await call(triageRoute.GET, '/api/v1/triage', as('alice'))).json);
    const aliceList = AutoscalerListResponseSchema.parse((await call(listRoute.GET, '/api/v1/autoscalers?limit=1', as('alice'))).json);
    const bob = TriageResponseSchema.parse((await call(triageRoute.GET, '/api/v1/triage', as('bob'))).json);
    const carol = TriageResponseSchema.parse((await call(triageRoute.GET, '/api/v1/triage', as('carol'))).json);
    expect(all.totals.total).toBe(aliceList.total);
    expect(bob.totals.total).not.toBe(all.totals.total);
    expect(all.groups.length).toBeGreaterThan(0);
    for (const g of all.groups) {
      for (const c of g.clusters) expect(['prod-eu-west-1', 'prod-us-east-1']).toContain(c);
      for (const n of g.namespaces) expect(['shop', 'payments']).toContain(n);
    }
    expect(all.groups.reduce((n, g) => n + g.count, 0)).toBeLessThanOrEqual(all.totals.total);
    for (const g of bob.groups) for (const c of g.clusters) expect(c === 'ocp-prod-east' || c.startsWith('karmada-global')).toBe(true);
    expect(carol.totals).toEqual({ total: 0, failing: 0, degraded: 0, ok: 0, unknown: 0 });
    expect(carol.groups).toEqual([]);
    expect(carol.clusters).toEqual([]);
  });

  it('identical reads at once by people with other scopes never share an answer; the same person’s do', async () => {
    const { counts } = sharedAnswersOf(app);
    // Which clusters an answer names is the person's scope alone (the demo's churn moves everything else).
    const clustersOf = (json: unknown): string => (json as { clusters: { name: string }[] }).clusters.map((c) => c.name).join(',');
    for (const [route, url] of [
      [triageRoute.GET, '/api/v1/triage?health=failing,degraded'],
      [listRoute.GET, '/api/v1/autoscalers?limit=7&sort=name'],
    ] as const) {
      // All at once, alice twice, on a read nobody made before: the first of each scope makes its answer.
      const before = { ...counts };
      const people = ['alice', 'bob', 'carol', 'alice'] as const;
      const answers = await Promise.all(people.map((who) => call(route, url, as(who))));
      expect(counts.made + counts.shared - before.made - before.shared).toBe(4);
      expect(counts.made - before.made).toBeGreaterThanOrEqual(3);
      // Each person's answer is their own, whoever asked first: as each reads it alone.
      const alone = new Map<string, string>();
      for (const who of ['alice', 'bob', 'carol'] as const) alone.set(who, clustersOf((await call(route, url, as(who))).json));
      expect(new Set(alone.values()).size).toBe(3);
      answers.forEach((a, k) => expect(clustersOf(a.json), `${url} as ${people[k]}`).toBe(alone.get(people[k] as string)));
    }
  });

  it('the server’s fast path (scripts/serve.mjs) asks the same question: each person their own, nobody without a session', async () => {
    const server = http.createServer((req, res) => {
      if (!answerFast(req, res)) res.writeHead(599).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const get = (url: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${at}${url}`, { headers });
      const alice = AutoscalerListResponseSchema.parse(await (await get('/api/v1/autoscalers?limit=500', as('alice'))).json());
      expect(alice.total).toBeGreaterThan(0);
      expect(new Set(alice.items.map((a) => a.cluster))).toEqual(new Set(['prod-eu-west-1', 'prod-us-east-1']));
      expect(new Set(alice.items.map((a) => a.namespace))).toEqual(new Set(['shop', 'payments']));
      const bob = TriageResponseSchema.parse(await (await get('/api/v1/triage', as('bob'))).json());
      for (const g of bob.groups) for (const c of g.clusters) expect(c === 'ocp-prod-east' || c.startsWith('karmada-global')).toBe(true);
      const carol = TriageResponseSchema.parse(await (await get('/api/v1/triage', as('carol'))).json());
      expect(carol.totals.total).toBe(0);
      const hidden = await get('/api/v1/autoscalers?cluster=ocp-prod-east', as('alice'));
      expect(hidden.status).toBe(400);
      expect(errorOf(await hidden.json()).message).toBe('unknown cluster "ocp-prod-east"');
      for (const url of ['/api/v1/autoscalers', '/api/v1/triage']) {
        for (const headers of [{}, { cookie: 'autoscope_session=forged' }] as Record<string, string>[]) {
          const res = await get(url, headers);
          expect(res.status, url).toBe(401);
          expect(errorOf(await res.json()).code).toBe('unauthenticated');
        }
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('detail, history, explain, federation inputs, HPA preview: an object the person may not see answers exactly like one that does not exist', async () => {
    const target = { cluster: 'prod-eu-west-1', kind: 'HorizontalPodAutoscaler', namespace: 'search', name: 'query-api' };
    const absent = { ...target, name: 'no-such-hpa' };
    const visible = { ...target, namespace: 'shop', name: 'storefront' };
    expect(AutoscalerDetailResponseSchema.parse((await call(detailRoute.GET, '/x', as('alice'), visible)).json).autoscaler.name).toBe(
      'storefront',
    );
    expect((await call(detailRoute.GET, '/x', as('bob'), target)).status).toBe(404);
    for (const [handler, suffix] of [
      [detailRoute.GET, ''],
      [historyRoute.GET, '/history'],
      [explainRoute.GET, '/explain'],
    ] as [Handler, string][]) {
      // search/query-api exists but is not alice's; its twin does not exist at all: same status, same body.
      const hidden = await call(handler, suffix, as('alice'), target);
      const missing = await call(handler, suffix, as('alice'), absent);
      expect(hidden.status).toBe(404);
      expect(errorOf(hidden.json)).toEqual({
        ...errorOf(missing.json),
        message: errorOf(missing.json).message.replace('no-such-hpa', 'query-api'),
      });
    }
    // A cluster the person may not see: the same 404 as a cluster that does not exist.
    const otherCluster = await call(detailRoute.GET, '', as('alice'), {
      cluster: 'ocp-prod-east',
      kind: 'HorizontalPodAutoscaler',
      namespace: 'billing',
      name: 'billing-api',
    });
    const noCluster = await call(detailRoute.GET, '', as('alice'), {
      cluster: 'ocp-prod-eest',
      kind: 'HorizontalPodAutoscaler',
      namespace: 'billing',
      name: 'billing-api',
    });
    expect(otherCluster.status).toBe(404);
    expect(errorOf(otherCluster.json).message).toBe(errorOf(noCluster.json).message.replace('ocp-prod-eest', 'ocp-prod-east'));
    const fhpas = AutoscalerListResponseSchema.parse(
      (await call(listRoute.GET, '/api/v1/autoscalers?kind=FederatedHPA&limit=50', as('bob'))).json,
    ).items;
    const one = fhpas[0];
    expect(one).toBeDefined();
    if (one) {
      const ref = { cluster: one.cluster, kind: one.kind, namespace: one.namespace, name: one.name };
      expect((await call(fedInputsRoute.GET, '', as('bob'), ref)).status).toBe(200);
      expect((await call(fedInputsRoute.GET, '', as('alice'), ref)).status).toBe(404);
    }
    const preview = await call(
      previewHpaRoute.POST,
      '/api/v1/preview/hpa',
      as('bob'),
      {},
      {
        method: 'POST',
        body: JSON.stringify({ id: 'prod-eu-west-1/HorizontalPodAutoscaler/shop/storefront', changes: { maxReplicas: 20 } }),
      },
    );
    expect(preview.status).toBe(404);
    const fedPreview = await call(previewFedRoute.POST, '', {}, { operation: 'webster-seats' }, { method: 'POST', body: '{}' });
    expect(fedPreview.status).toBe(401);
  });

  it('transitions and stats: only what the person may see', async () => {
    await until(
      async () =>
        TransitionsResponseSchema.parse((await call(transitionsRoute.GET, '/api/v1/transitions?limit=200', as('alice'))).json).transitions
          .length,
      (n) => n > 0,
    );
    const alice = TransitionsResponseSchema.parse(
      (await call(transitionsRoute.GET, '/api/v1/transitions?limit=200', as('alice'))).json,
    ).transitions;
    expect(alice.every((t) => t.cluster.startsWith('prod-') && (t.namespace === 'shop' || t.namespace === 'payments'))).toBe(true);
    expect(
      TransitionsResponseSchema.parse((await call(transitionsRoute.GET, '/api/v1/transitions', as('carol'))).json).transitions,
    ).toEqual([]);
    expect((await call(transitionsRoute.GET, '/api/v1/transitions?cluster=ocp-prod-east', as('alice'))).status).toBe(400);
    const aliceStats = StatsResponseSchema.parse((await call(statsRoute.GET, '/api/v1/stats', as('alice'))).json);
    const aliceTotal = AutoscalerListResponseSchema.parse(
      (await call(listRoute.GET, '/api/v1/autoscalers?limit=1', as('alice'))).json,
    ).total;
    expect(aliceStats).toMatchObject({ autoscalers: aliceTotal, clusters: 2 });
    expect(StatsResponseSchema.parse((await call(statsRoute.GET, '/api/v1/stats', as('carol'))).json)).toMatchObject({
      autoscalers: 0,
      clusters: 0,
    });
  });

  it('the stream: a change or a cluster state the person may not see is never sent', async () => {
    const open = async (who: keyof typeof people): Promise<{ messages: StreamMessage[]; stop: () => void }> => {
      const controller = new AbortController();
      const req = new NextRequest(`${base}/api/v1/stream`, { headers: as(who), signal: controller.signal });
      const res = await streamRoute.GET(req, undefined);
      expect(res.status).toBe(200);
      const messages: StreamMessage[] = [];
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const data = /^data: (.*)$/m.exec(buffer.slice(0, cut))?.[1];
            buffer = buffer.slice(cut + 2);
            if (data) messages.push(StreamMessageSchema.parse(JSON.parse(data)));
          }
        }
      })();
      return { messages, stop: () => controller.abort() };
    };
    const streams = { alice: await open('alice'), bob: await open('bob'), carol: await open('carol') };
    const aliceId = 'prod-eu-west-1/HorizontalPodAutoscaler/shop/storefront';
    const hiddenFromAlice = 'prod-eu-west-1/HorizontalPodAutoscaler/search/query-api';
    const bobId = 'ocp-prod-east/HorizontalPodAutoscaler/billing/billing-api';
    app.bus.changed([aliceId, hiddenFromAlice, bobId]);
    app.bus.cluster({ ...app.clusterStatuses().find((c) => c.name === 'ocp-prod-east')!, state: 'synced' });
    const changedIds = (m: StreamMessage[]): string[] => m.flatMap((x) => (x.type === 'changed' ? x.ids : []));
    await until(
      () => changedIds(streams.alice.messages).length + changedIds(streams.bob.messages).length,
      (n) => n >= 2,
      10_000,
    );
    expect(changedIds(streams.alice.messages).filter((id) => [aliceId, hiddenFromAlice, bobId].includes(id))).toEqual([aliceId]);
    expect(changedIds(streams.bob.messages).filter((id) => [aliceId, hiddenFromAlice, bobId].includes(id))).toEqual([bobId]);
    const clusterNames = (m: StreamMessage[]): string[] => m.flatMap((x) => (x.type === 'cluster' ? [x.cluster.name] : []));
    expect(new Set(clusterNames(streams.alice.messages))).toEqual(new Set(['prod-eu-west-1', 'prod-us-east-1']));
    expect(clusterNames(streams.bob.messages)).toContain('ocp-prod-east');
    expect(clusterNames(streams.bob.messages).some((n) => n.startsWith('prod-'))).toBe(false);
    // The contractor's stream carries heartbeats at most: no cluster, no change.
    expect(streams.carol.messages.filter((m) => m.type !== 'heartbeat')).toEqual([]);
    for (const s of Object.values(streams)) s.stop();
  });
});

describe('trusted-proxy mode', () => {
  let jwks: http.Server;
  let sign: (claims: Record<string, unknown>, options?: { key?: CryptoKey; alg?: string; exp?: string; iss?: string }) => Promise<string>;
  let proxyAccess: Access;
  const issuer = `http://127.0.0.1:${jwksPort}`;

  beforeAll(async () => {
    const good = await generateKeyPair('RS256');
    const publicJwk = { ...(await exportJWK(good.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [publicJwk] }));
      else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => jwks.listen(jwksPort, '127.0.0.1', () => resolve()));
    sign = (claims, options = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: 'k1' })
        .setIssuer(options.iss ?? issuer)
        .setAudience('autoscope')
        .setIssuedAt()
        .setExpirationTime(options.exp ?? '5m')
        .sign(options.key ?? good.privateKey);
    const policyFile = path.join(dataDir, 'policy.yaml');
    proxyAccess = new Access(
      readAccessConfig({
        HOST: '0.0.0.0',
        AUTOSCOPE_AUTH: 'proxy',
        AUTOSCOPE_PROXY_ISSUER: issuer,
        AUTOSCOPE_PROXY_AUDIENCE: 'autoscope',
        AUTOSCOPE_POLICY_FILE: policyFile,
      }),
      dataDir,
    );
    installAccess(proxyAccess);
  });

  afterAll(async () => {
    installAccess(access);
    proxyAccess.close();
    await new Promise<void>((resolve) => jwks.close(() => resolve()));
  });

  it('a verified token names the person; the policy applies as with a session', async () => {
    const token = await sign({ sub: 'bob', name: 'Bob Example', groups: ['team-platform'] });
    const clusters = ClusterListResponseSchema.parse(
      (await call(clustersRoute.GET, '/api/v1/clusters', { authorization: `Bearer ${token}` })).json,
    ).clusters;
    expect(clusters.map((c) => c.name)).toContain('ocp-prod-east');
    expect(clusters.some((c) => c.name.startsWith('prod-'))).toBe(false);
    const me = MeResponseSchema.parse((await call(meRoute.GET, '/api/v1/me', { authorization: `Bearer ${token}` })).json);
    expect(me).toMatchObject({ mode: 'proxy', user: { name: 'Bob Example', groups: ['team-platform'] }, signOutPath: null });
  });

  it('refuses an unsigned, a wrongly signed, an expired, a foreign-issuer or an HMAC token, and a plain user header', async () => {
    const other = await generateKeyPair('RS256');
    const claims = { sub: 'bob', groups: ['team-platform'] };
    const header = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${header({ alg: 'none', typ: 'JWT' })}.${header({ ...claims, iss: issuer, aud: 'autoscope', exp: Math.floor(Date.now() / 1000) + 300 })}.`;
    const good = await sign(claims);
    const [h] = good.split('.');
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setAudience('autoscope')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'));
    const refused: [string, Record<string, string>][] = [
      ['none', { authorization: `Bearer ${unsigned}` }],
      ['other key', { authorization: `Bearer ${await sign(claims, { key: other.privateKey })}` }],
      ['expired', { authorization: `Bearer ${await sign(claims, { exp: '-1m' })}` }],
      ['other issuer', { authorization: `Bearer ${await sign(claims, { iss: 'https://elsewhere.example' })}` }],
      [
        'tampered payload',
        {
          authorization: `Bearer ${h}.${header({ ...claims, groups: ['team-web'], iss: issuer, aud: 'autoscope', exp: 9999999999 })}.${good.split('.')[2]}`,
        },
      ],
      ['hmac', { authorization: `Bearer ${hmac}` }],
      ['x-user', { 'x-user': 'bob', 'x-forwarded-user': 'bob', 'x-forwarded-groups': 'team-platform' }],
      ['none at all', {}],
    ];
    for (const [what, headers] of refused) {
      const res = await call(clustersRoute.GET, '/api/v1/clusters', headers);
      expect([what, res.status]).toEqual([what, 401]);
    }
  });
});

describe('logs', () => {
  it('one JSON audit line per sign-in, sign-out and denied request, with no cookie, token or secret in any line', () => {
    const audits = logLines.flatMap((l) => {
      try {
        const line = JSON.parse(l) as { audit?: string; subject?: string; groups?: string; path?: string };
        return line.audit ? [line] : [];
      } catch {
        return [];
      }
    });
    expect(audits.filter((a) => a.audit === 'sign-in').map((a) => a.subject)).toEqual(expect.arrayContaining(['alice', 'bob', 'carol']));
    expect(audits.find((a) => a.audit === 'sign-in' && a.subject === 'alice')?.groups).toBe('team-web');
    expect(audits.some((a) => a.audit === 'sign-out' && a.subject === 'bob')).toBe(true);
    expect(audits.some((a) => a.audit === 'denied' && a.path === '/api/v1/clusters')).toBe(true);
    const sessionIds = Object.values(people).map((p) => p.cookie.split('=')[1] ?? '');
    for (const line of logLines) {
      for (const id of sessionIds) expect(line).not.toContain(id);
      expect(line).not.toContain(provider.clientSecret);
      expect(line).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ/);
    }
  });
});
