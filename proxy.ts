import { NextResponse } from 'next/server';
import type { NextRequest } from 'next/server';
import type { ErrorBody } from '@/lib/api';
import { contentSecurityPolicy, newNonce, securityHeaders } from '@/lib/http/security-headers';

/**
 * Next's request proxy. It decides nothing about who may see what — every data route asks the access layer
 * itself (server/access), so a request that skips this file (CVE-2025-29927) still gets nothing — but it
 * does what must happen to every response and request before a route runs:
 * - security headers on every response: a nonce-based Content-Security-Policy (pages render per request so
 *   Next can put the nonce on its own scripts), frame-ancestors 'none', nosniff, Referrer-Policy;
 * - a cross-site POST (CSRF) is refused: the previews, the sign-out;
 * - a method an API route does not take is a 405 with the JSON error body and an Allow header;
 * - a path with malformed percent-encoding is a 400 (Next's router would answer a bare 500);
 * - with OIDC sign-in, a page request without a session cookie goes to the sign-in first and comes back to
 *   the same URL afterwards (the session itself is checked by the data routes).
 */

/** The API reads (GET) everywhere but the previews and the paste diagnosis, which take a body (POST) and change nothing. */
function allowedMethods(pathname: string): string[] {
  return pathname.startsWith('/api/v1/preview/') || pathname === '/api/v1/diagnose' ? ['POST'] : ['GET', 'HEAD'];
}

/** The session cookie's name (server/access/access.ts). */
const sessionCookie = 'autoscope_session';

function withSecurityHeaders(res: NextResponse, csp: string): NextResponse {
  for (const [name, value] of securityHeaders(csp)) res.headers.set(name, value);
  return res;
}

/** A request a browser sent from another site: Sec-Fetch-Site says so, else an Origin that is not this host. */
export function isCrossSite(request: NextRequest): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.get('origin');
  if (!origin) return false;
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

function isPage(pathname: string): boolean {
  return (
    !pathname.startsWith('/api/') && !pathname.startsWith('/auth/') && !pathname.startsWith('/_next/') && !/\.[a-z0-9]+$/i.test(pathname)
  );
}

function early(request: NextRequest): NextResponse | undefined {
  const { pathname } = request.nextUrl;
  const api = pathname.startsWith('/api/');
  if (pathname.includes('%')) {
    try {
      for (const segment of pathname.split('/')) decodeURIComponent(segment);
    } catch {
      const message = 'malformed percent-encoding in the request path';
      if (api) return NextResponse.json({ error: { code: 'bad_request', message } } satisfies ErrorBody, { status: 400 });
      return new NextResponse(`400 Bad Request: ${message}\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
  }
  if (api && request.method !== 'OPTIONS') {
    const allowed = allowedMethods(pathname);
    if (!allowed.includes(request.method)) {
      return NextResponse.json(
        {
          error: {
            code: 'method_not_allowed',
            message: `${request.method} is not allowed on ${pathname}; use ${allowed.join(' or ')} (Autoscope never changes a cluster)`,
          },
        } satisfies ErrorBody,
        { status: 405, headers: { allow: allowed.join(', ') } },
      );
    }
  }
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS' && isCrossSite(request)) {
    return NextResponse.json({ error: { code: 'forbidden', message: 'cross-site request refused' } } satisfies ErrorBody, { status: 403 });
  }
  if (process.env.AUTOSCOPE_AUTH === 'oidc' && request.method === 'GET' && isPage(pathname) && !request.cookies.has(sessionCookie)) {
    const login = new URL('/auth/login', request.url);
    login.searchParams.set('returnTo', `${pathname}${request.nextUrl.search}`);
    return NextResponse.redirect(login, 307);
  }
  return undefined;
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, process.env);
  const stop = early(request);
  if (stop) return withSecurityHeaders(stop, csp);
  // Next reads the nonce from the request's CSP header and puts it on the scripts it renders.
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  return withSecurityHeaders(NextResponse.next({ request: { headers } }), csp);
}
