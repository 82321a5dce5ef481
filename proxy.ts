import { NextResponse } from 'next/server';
import type { NextRequest } from 'next/server';
import type { ErrorBody } from '@/lib/api';

/** The API reads (GET) everywhere but the previews and the paste diagnosis, which take a body (POST) and change nothing. */
function allowedMethods(pathname: string): string[] {
  return pathname.startsWith('/api/v1/preview/') || pathname === '/api/v1/diagnose' ? ['POST'] : ['GET', 'HEAD'];
}

/**
 * A method an API route does not take is a 405 with the JSON error body and an Allow header (Next's own
 * answer is an empty 405).
 *
 * A path whose percent-encoding is malformed (`%E0%A4%A`, `%ZZ`) makes Next's router throw while decoding
 * route parameters, which it answers with a bare 500. Such a request is the client's mistake: answer it
 * here with a 400 — the JSON error body for the API, a plain line for pages.
 */
export function proxy(request: NextRequest): NextResponse | undefined {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith('/api/') && request.method !== 'OPTIONS') {
    const allowed = allowedMethods(pathname);
    if (!allowed.includes(request.method)) {
      return NextResponse.json(
        { error: { code: 'method_not_allowed', message: `${request.method} is not allowed on ${pathname}; use ${allowed.join(' or ')} (Autoscope never changes a cluster)` } } satisfies ErrorBody,
        { status: 405, headers: { allow: allowed.join(', ') } },
      );
    }
  }
  if (!pathname.includes('%')) return undefined;
  try {
    for (const segment of pathname.split('/')) decodeURIComponent(segment);
    return undefined;
  } catch {
    const message = 'malformed percent-encoding in the request path';
    if (pathname.startsWith('/api/')) return NextResponse.json({ error: { code: 'bad_request', message } } satisfies ErrorBody, { status: 400 });
    return new NextResponse(`400 Bad Request: ${message}\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
}
