import 'server-only';
import type { AccessPolicy, AccessScope, Identity } from '@/lib/access';
import { fullAccess, scopeFor } from '@/lib/access';
import { readConfig } from '../config';
import { AppError } from '../http/app-error';
import { log } from '../log';
import { audit } from './audit';
import type { AccessConfig } from './config';
import { readAccessConfig } from './config';
import { OidcSignIn } from './oidc';
import { PolicySource } from './policy-file';
import { ProxyJwtVerifier } from './proxy-jwt';
import { RateLimiter } from './rate-limit';
import { PgSessionStore } from './pg-session-store';
import type { Sessions } from './session-store';
import { SessionStore } from './session-store';

/** The opaque session cookie (HttpOnly, Secure, SameSite=Lax) and the short-lived cookie of a sign-in in flight. */
export const sessionCookie = 'autoscope_session';
export const loginCookie = 'autoscope_login';

/** Who is asking and what they may see; every data read takes one. */
export interface Viewer {
  identity: Identity | null;
  scope: AccessScope;
}

/** The viewer when nobody signs in (loopback, or AUTOSCOPE_AUTH=none): the whole fleet. */
export const anonymousViewer: Viewer = { identity: null, scope: fullAccess };

/** Without a policy file every signed-in person sees the fleet: sign-in alone decides who gets in. */
const readAllPolicy: AccessPolicy = { defaultRole: 'read-all', rules: [] };

/** The access area's running parts, built once from the environment. */
export class Access {
  readonly policy: PolicySource | null;
  readonly sessions: Sessions | null;
  readonly oidc: OidcSignIn | null;
  readonly proxy: ProxyJwtVerifier | null;
  /** Sign-in starts and callbacks: 20 a minute per client address. */
  readonly signInLimiter = new RateLimiter(20, 60_000);

  /** `databaseUrl`: sessions in PostgreSQL, shared by the replicas; else in SQLite in `dataDir`. */
  constructor(
    readonly config: AccessConfig,
    dataDir: string,
    databaseUrl?: string,
  ) {
    this.policy = config.policyFile && config.mode !== 'local' && config.mode !== 'none' ? new PolicySource(config.policyFile) : null;
    const timeouts = config.oidc ? { idleMs: config.oidc.idleMinutes * 60_000, absoluteMs: config.oidc.maxHours * 3600_000 } : null;
    this.sessions = timeouts ? (databaseUrl ? new PgSessionStore(databaseUrl, timeouts) : new SessionStore(dataDir, timeouts)) : null;
    this.oidc = config.oidc && this.sessions ? new OidcSignIn(config.oidc, this.sessions) : null;
    this.proxy = config.proxy ? new ProxyJwtVerifier(config.proxy) : null;
    if (config.mode === 'oidc' || config.mode === 'proxy') {
      const p = this.policy?.current();
      log.info(
        `access: ${config.mode} sign-in; ${this.policy ? `policy ${this.policy.file} (${p?.rules.length ?? 0} rule(s), defaultRole ${p?.defaultRole ?? 'none'})` : 'no AUTOSCOPE_POLICY_FILE: every signed-in person sees every cluster'}`,
      );
    } else if (config.mode === 'none') {
      log.warn('access: AUTOSCOPE_AUTH=none — no sign-in; anyone who reaches the port sees every cluster');
    }
  }

  scopeOf(identity: Identity): AccessScope {
    return scopeFor(this.policy?.current() ?? readAllPolicy, identity);
  }

  /** Whether pages carry the "no sign-in" banner. */
  get openBanner(): boolean {
    return this.config.mode === 'none';
  }

  close(): void {
    void this.sessions?.close();
  }
}

const globalKey = Symbol.for('autoscope.access');
type Holder = { [globalKey]?: Access };

/** Makes `access` the running one (tests build their own). */
export function installAccess(access: Access | undefined): void {
  (globalThis as Holder)[globalKey] = access;
}

/** The running access area, built from the environment on first use. */
export function getAccess(): Access {
  const holder = globalThis as Holder;
  const { dataDir, databaseUrl } = readConfig();
  holder[globalKey] ??= new Access(readAccessConfig(), dataDir, databaseUrl);
  return holder[globalKey];
}

/** One cookie's value from the request's Cookie header. */
export function cookieOf(req: Request, name: string): string | null {
  const header = req.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The signed-in person of a request, or null; never throws. */
export async function identityOf(
  req: Request,
  access: Access = getAccess(),
): Promise<{ identity: Identity } | { identity: null; reason: string }> {
  if (access.sessions) {
    const id = cookieOf(req, sessionCookie);
    if (!id) return { identity: null, reason: 'no session' };
    const identity = await access.sessions.get(id, Date.now());
    return identity ? { identity } : { identity: null, reason: 'session unknown or expired' };
  }
  if (access.proxy) {
    const verdict = await access.proxy.verify(req.headers);
    return verdict.ok ? { identity: verdict.identity } : { identity: null, reason: verdict.reason };
  }
  return { identity: null, reason: 'no sign-in configured' };
}

/**
 * The viewer of a request, for every data route: nobody to identify in the local and `none` modes (the
 * whole fleet); otherwise a live session or a verified proxy JWT, or a 401 (and an audit line).
 */
export async function requireViewer(req: Request, access: Access = getAccess()): Promise<Viewer> {
  if (access.config.mode === 'local' || access.config.mode === 'none') return anonymousViewer;
  const who = await identityOf(req, access);
  if (who.identity) return { identity: who.identity, scope: access.scopeOf(who.identity) };
  audit('denied', { method: req.method, path: new URL(req.url).pathname, reason: who.reason, mode: access.config.mode });
  throw new AppError(
    'unauthenticated',
    access.config.mode === 'oidc'
      ? 'sign in to Autoscope first (/auth/login)'
      : 'this request carries no valid identity token from the trusted proxy',
  );
}

/** The viewer of a request when there is one, else null — for the probes, which answer either way; no audit line. */
export async function optionalViewer(req: Request, access: Access = getAccess()): Promise<Viewer | null> {
  if (access.config.mode === 'local' || access.config.mode === 'none') return anonymousViewer;
  const who = await identityOf(req, access);
  return who.identity ? { identity: who.identity, scope: access.scopeOf(who.identity) } : null;
}
