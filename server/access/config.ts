import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How people are identified:
 * - `local`: no sign-in, allowed only on a loopback address (the default of `npm start`);
 * - `none`: no sign-in on purpose (`AUTOSCOPE_AUTH=none`), every page carries a banner saying so;
 * - `oidc`: sign-in with an OpenID Connect provider (authorization code + PKCE), server-side sessions;
 * - `proxy`: a trusted proxy in front signs a JWT per request, verified against its issuer's JWKS.
 */
export type AuthMode = 'local' | 'none' | 'oidc' | 'proxy';

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string | null;
  redirectUrl: URL;
  scopes: string;
  groupsClaim: string;
  idleMinutes: number;
  maxHours: number;
}

export interface ProxySettings {
  issuer: string;
  /** Where the signing keys are; from the issuer's discovery document when not set. */
  jwksUrl: URL | null;
  audience: string | null;
  /** `authorization` (a `Bearer` token) or the name of a header that carries the JWT alone. */
  header: string;
  groupsClaim: string;
}

export interface AccessConfig {
  mode: AuthMode;
  oidc: OidcSettings | null;
  proxy: ProxySettings | null;
  policyFile: string | null;
}

/** A setting that makes Autoscope refuse to start; `message` is the one line that says what to set. */
export class AccessConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccessConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

function required(env: Env, name: string, mode: string): string {
  const value = env[name]?.trim();
  if (!value) throw new AccessConfigError(`AUTOSCOPE_AUTH=${mode} needs ${name}`);
  return value;
}

function url(env: Env, name: string, mode: string): URL {
  const value = required(env, name, mode);
  try {
    return new URL(value);
  } catch {
    throw new AccessConfigError(`${name} is not a URL: ${JSON.stringify(value)}`);
  }
}

function positive(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new AccessConfigError(`${name} must be a positive number, not ${JSON.stringify(raw)}`);
  return n;
}

/** An issuer over plain http is accepted only on loopback (the test and demo provider). */
function requireHttps(u: URL, name: string): void {
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopbackHost(u.hostname)))
    throw new AccessConfigError(`${name} must be https (http only on 127.0.0.1/localhost)`);
}

/** The access settings from the environment (docs/access.md lists them). `host` is the address Autoscope listens on. */
export function readAccessConfig(env: Env = process.env): AccessConfig {
  const host = env.HOST?.trim() || '127.0.0.1';
  const requested = env.AUTOSCOPE_AUTH?.trim().toLowerCase() ?? '';
  const policyFile = env.AUTOSCOPE_POLICY_FILE?.trim() ? path.resolve(/*turbopackIgnore: true*/ env.AUTOSCOPE_POLICY_FILE.trim()) : null;
  if (requested === '') {
    if (!isLoopbackHost(host)) {
      throw new AccessConfigError(
        `HOST=${host} is not loopback: set AUTOSCOPE_AUTH=oidc (with AUTOSCOPE_OIDC_ISSUER, AUTOSCOPE_OIDC_CLIENT_ID, AUTOSCOPE_OIDC_REDIRECT_URL) or AUTOSCOPE_AUTH=proxy (with AUTOSCOPE_PROXY_ISSUER), or AUTOSCOPE_AUTH=none to serve every cluster to anyone who reaches the port`,
      );
    }
    return { mode: 'local', oidc: null, proxy: null, policyFile: null };
  }
  if (requested === 'none') return { mode: 'none', oidc: null, proxy: null, policyFile: null };
  if (requested === 'oidc') {
    const issuer = url(env, 'AUTOSCOPE_OIDC_ISSUER', 'oidc');
    requireHttps(issuer, 'AUTOSCOPE_OIDC_ISSUER');
    const redirectUrl = url(env, 'AUTOSCOPE_OIDC_REDIRECT_URL', 'oidc');
    const secretFile = env.AUTOSCOPE_OIDC_CLIENT_SECRET_FILE?.trim();
    let clientSecret: string | null = null;
    if (secretFile) {
      try {
        clientSecret = readFileSync(secretFile, 'utf8').trim();
      } catch (err) {
        throw new AccessConfigError(
          `AUTOSCOPE_OIDC_CLIENT_SECRET_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): ${secretFile}`,
        );
      }
      if (!clientSecret) throw new AccessConfigError(`AUTOSCOPE_OIDC_CLIENT_SECRET_FILE is empty: ${secretFile}`);
    }
    return {
      mode: 'oidc',
      oidc: {
        issuer,
        clientId: required(env, 'AUTOSCOPE_OIDC_CLIENT_ID', 'oidc'),
        clientSecret,
        redirectUrl,
        scopes: env.AUTOSCOPE_OIDC_SCOPES?.trim() || 'openid profile email groups',
        groupsClaim: env.AUTOSCOPE_OIDC_GROUPS_CLAIM?.trim() || 'groups',
        idleMinutes: positive(env, 'AUTOSCOPE_SESSION_IDLE_MINUTES', 60),
        maxHours: positive(env, 'AUTOSCOPE_SESSION_MAX_HOURS', 12),
      },
      proxy: null,
      policyFile,
    };
  }
  if (requested === 'proxy') {
    // Compared with the token's `iss` as written, so kept as the string it is.
    const issuer = required(env, 'AUTOSCOPE_PROXY_ISSUER', 'proxy');
    const issuerUrl = url(env, 'AUTOSCOPE_PROXY_ISSUER', 'proxy');
    const jwksUrl = env.AUTOSCOPE_PROXY_JWKS_URL?.trim() ? url(env, 'AUTOSCOPE_PROXY_JWKS_URL', 'proxy') : null;
    requireHttps(jwksUrl ?? issuerUrl, jwksUrl ? 'AUTOSCOPE_PROXY_JWKS_URL' : 'AUTOSCOPE_PROXY_ISSUER');
    return {
      mode: 'proxy',
      oidc: null,
      proxy: {
        issuer,
        jwksUrl,
        audience: env.AUTOSCOPE_PROXY_AUDIENCE?.trim() || null,
        header: (env.AUTOSCOPE_PROXY_HEADER?.trim() || 'authorization').toLowerCase(),
        groupsClaim: env.AUTOSCOPE_PROXY_GROUPS_CLAIM?.trim() || 'groups',
      },
      policyFile,
    };
  }
  throw new AccessConfigError(`AUTOSCOPE_AUTH=${requested} is not a mode: use oidc, proxy or none`);
}

/** Whether pages carry the "no sign-in" banner: AUTOSCOPE_AUTH=none was chosen on purpose. */
export function isOpenByChoice(env: Env = process.env): boolean {
  return env.AUTOSCOPE_AUTH?.trim().toLowerCase() === 'none';
}
