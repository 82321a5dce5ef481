import 'server-only';
import type { MeResponse } from '@/lib/api';
import { AppError } from '../http/app-error';
import type { Access } from './access';
import { cookieOf, getAccess, identityOf, loginCookie, requireViewer, sessionCookie } from './access';
import { audit } from './audit';
import { safeReturnTo } from './oidc';

/** The client's address for rate limiting: the first hop the server was told of (Next sets x-forwarded-for). */
function addressOf(req: Request): string {
  return req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}

/** Cookie attributes: HttpOnly (no script reads it), Secure, SameSite=Lax (sent on top-level navigations only). */
function cookie(name: string, value: string, maxAgeSeconds: number, path = '/'): string {
  return `${name}=${value}; Path=${path}; HttpOnly; Secure; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`;
}

function redirect(location: string | URL, cookies: string[] = [], status = 303): Response {
  const headers = new Headers({ location: String(location), 'cache-control': 'no-store' });
  for (const c of cookies) headers.append('set-cookie', c);
  return new Response(null, { status, headers });
}

function requireOidc(access: Access): NonNullable<Access['oidc']> {
  if (!access.oidc) throw new AppError('not_found', 'sign-in is not configured (AUTOSCOPE_AUTH is not oidc)');
  return access.oidc;
}

function limit(access: Access, req: Request, what: string): void {
  const address = addressOf(req);
  if (access.signInLimiter.hit(address, Date.now()) && access.signInLimiter.hit('*', Date.now())) return;
  audit('rate-limited', { path: new URL(req.url).pathname, address, reason: what });
  throw new AppError('rate_limited', 'too many sign-in attempts from this address; wait a minute and try again');
}

/** GET /auth/login?returnTo=/path — off to the provider, with a login cookie that binds the flow to this browser. */
export async function startSignIn(req: Request, access: Access = getAccess()): Promise<Response> {
  const oidc = requireOidc(access);
  limit(access, req, 'sign-in start');
  const returnTo = safeReturnTo(new URL(req.url).searchParams.get('returnTo'));
  let started: { url: URL; state: string };
  try {
    started = await oidc.begin(returnTo, Date.now());
  } catch (err) {
    throw new AppError('upstream_error', `the identity provider cannot be reached: ${err instanceof Error ? err.message : 'error'}`);
  }
  return redirect(started.url, [cookie(loginCookie, started.state, 600, '/auth/')], 302);
}

/** GET /auth/callback — the provider's answer: a session, its cookie, and back to where the person was going. */
export async function finishSignIn(req: Request, access: Access = getAccess()): Promise<Response> {
  const oidc = requireOidc(access);
  limit(access, req, 'sign-in callback');
  const query = new URL(req.url).searchParams;
  const providerError = query.get('error');
  try {
    if (providerError) throw new Error(`the provider answered ${providerError}`);
    const { identity, returnTo } = await oidc.complete(query, cookieOf(req, loginCookie), Date.now());
    const session = await access.sessions?.create(identity, Date.now());
    if (!session) throw new Error('no session store');
    audit('sign-in', { subject: identity.subject, name: identity.name, groups: identity.groups, address: addressOf(req), mode: 'oidc' });
    return redirect(new URL(returnTo, oidc.settings.redirectUrl), [
      cookie(sessionCookie, session.id, (session.expiresAt - Date.now()) / 1000),
      cookie(loginCookie, '', 0, '/auth/'),
    ]);
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'error';
    audit('sign-in-failed', { address: addressOf(req), reason, mode: 'oidc' });
    throw new AppError('unauthenticated', `sign-in failed (${reason}); start again at /auth/login`);
  }
}

/** POST /auth/logout — the session row goes, the cookie is cleared, then the provider's end-session page when it has one. */
export async function signOut(req: Request, access: Access = getAccess()): Promise<Response> {
  const oidc = requireOidc(access);
  const id = cookieOf(req, sessionCookie);
  const who = await identityOf(req, access);
  if (id) await access.sessions?.delete(id);
  if (who.identity) audit('sign-out', { subject: who.identity.subject, name: who.identity.name, mode: 'oidc' });
  const signedOut = new URL('/auth/signed-out', oidc.settings.redirectUrl);
  const endSession = await oidc.endSessionUrl(signedOut);
  return redirect(endSession ?? signedOut, [cookie(sessionCookie, '', 0)]);
}

/** GET /api/v1/me — who is asking (a 401 without a live session or a valid token, like every data route). */
export async function describeMe(req: Request, access: Access = getAccess()): Promise<MeResponse> {
  const viewer = await requireViewer(req, access);
  return {
    mode: access.config.mode,
    user: viewer.identity ? { name: viewer.identity.name, email: viewer.identity.email, groups: viewer.identity.groups } : null,
    rules: viewer.scope.rules,
    seesAll: viewer.scope.all,
    openBanner: access.openBanner,
    signOutPath: access.config.mode === 'oidc' ? '/auth/logout' : null,
  };
}
