import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBodySchema } from '@/lib/api';
import { proxy } from '../proxy';

const at = (path: string, method = 'GET', headers: Record<string, string> = {}): NextRequest =>
  new NextRequest(new URL(path, 'http://127.0.0.1:3000'), { method, headers });
/** Next's "go on to the route" answer. */
const passes = (res: Response): boolean => res.headers.get('x-middleware-next') === '1';

describe('proxy.ts: malformed paths are the client’s mistake', () => {
  it('answers an API path with broken percent-encoding with the JSON error body and 400', async () => {
    const res = proxy(at('/api/v1/autoscalers/%E0%A4%A/HorizontalPodAutoscaler/shop/web'));
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('bad_request');
  });

  it('answers a page path with a plain 400', async () => {
    const res = proxy(at('/autoscalers/%ZZ/HorizontalPodAutoscaler/shop/web'));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('malformed percent-encoding');
  });

  it('lets well-formed paths through, encoded cluster names included', () => {
    expect(passes(proxy(at('/api/v1/autoscalers/arn%3Aaws%3Aeks%3Aus-east-1%3A1%3Acluster%2Fprod/HorizontalPodAutoscaler/shop/web')))).toBe(
      true,
    );
    expect(passes(proxy(at('/triage?q=%E2%9C%93')))).toBe(true);
    expect(passes(proxy(at('/')))).toBe(true);
  });

  it('answers a method an API route does not take with 405, the JSON body and Allow: the API only reads, previews only compute', async () => {
    const del = proxy(at('/api/v1/autoscalers', 'DELETE'));
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD');
    expect(ErrorBodySchema.parse(await del.json()).error.code).toBe('method_not_allowed');
    expect(proxy(at('/api/v1/preview/hpa', 'PUT')).headers.get('allow')).toBe('POST');
    expect(proxy(at('/api/v1/preview/hpa', 'GET')).status).toBe(405);
    expect(passes(proxy(at('/api/v1/preview/federation/scale-up', 'POST')))).toBe(true);
    expect(passes(proxy(at('/api/v1/diagnose', 'POST')))).toBe(true);
    expect(proxy(at('/api/v1/diagnose', 'GET')).headers.get('allow')).toBe('POST');
    expect(passes(proxy(at('/api/v1/triage', 'GET')))).toBe(true);
    // Pages are Next's business.
    expect(passes(proxy(at('/triage', 'POST')))).toBe(true);
  });
});

describe('proxy.ts: web security', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('every response carries the security headers, with a fresh script nonce each time that Next also gets', () => {
    const responses = [proxy(at('/')), proxy(at('/api/v1/triage')), proxy(at('/api/v1/triage', 'DELETE')), proxy(at('/x/%ZZ'))];
    const nonces = new Set<string>();
    for (const res of responses) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-eval');
      nonces.add(/'nonce-([^']+)'/.exec(csp)?.[1] ?? '');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    expect(nonces.size).toBe(responses.length);
    // The request goes on with the same policy, which is where Next reads the nonce for its own scripts.
    const page = proxy(at('/'));
    expect(page.headers.get('x-middleware-request-content-security-policy')).toBe(page.headers.get('content-security-policy'));
  });

  it('refuses a cross-site POST (CSRF) and lets a same-origin one and a non-browser client through', async () => {
    const crossSite = proxy(at('/api/v1/preview/hpa', 'POST', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }));
    expect(crossSite.status).toBe(403);
    expect(ErrorBodySchema.parse(await crossSite.json()).error.code).toBe('forbidden');
    expect(proxy(at('/auth/logout', 'POST', { origin: 'https://evil.example', host: '127.0.0.1:3000' })).status).toBe(403);
    expect(proxy(at('/api/v1/preview/hpa', 'POST', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect(passes(proxy(at('/api/v1/preview/hpa', 'POST', { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:3000' })))).toBe(
      true,
    );
    expect(passes(proxy(at('/auth/logout', 'POST', { origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' })))).toBe(true);
    expect(passes(proxy(at('/api/v1/preview/hpa', 'POST')))).toBe(true);
  });

  it('with OIDC sign-in, a page without a session cookie goes to the sign-in and keeps its URL to come back to', () => {
    vi.stubEnv('AUTOSCOPE_AUTH', 'oidc');
    vi.stubEnv('AUTOSCOPE_OIDC_ISSUER', 'https://id.example.com/realms/ops');
    const res = proxy(at('/triage?cluster=prod&health=failing'));
    expect(res.status).toBe(307);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.pathname).toBe('/auth/login');
    expect(location.searchParams.get('returnTo')).toBe('/triage?cluster=prod&health=failing');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://id.example.com");
    expect(passes(proxy(at('/triage', 'GET', { cookie: 'autoscope_session=x' })))).toBe(true);
    // The API answers 401 itself; the sign-in routes and Next's assets are never redirected.
    expect(passes(proxy(at('/api/v1/triage')))).toBe(true);
    expect(passes(proxy(at('/auth/signed-out')))).toBe(true);
    expect(passes(proxy(at('/_next/static/chunks/app.js')))).toBe(true);
  });
});
