import 'server-only';
import type { JWTVerifyGetKey } from 'jose';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Identity } from '@/lib/access';
import type { ProxySettings } from './config';
import { toIdentity } from './identity';

/** Asymmetric algorithms only: a shared-secret (HS*) or unsigned (`none`) token is never accepted. */
const algorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export type ProxyVerdict = { ok: true; identity: Identity } | { ok: false; reason: string };

/**
 * Trusted-proxy mode: the proxy in front (oauth2-proxy, an ingress with SSO) passes a signed JWT per request,
 * in `Authorization: Bearer` or a header of its own. It is verified against the issuer's JWKS (signature,
 * `iss`, `aud` when configured, `exp`/`nbf`); a plain user-name header is never trusted.
 */
export class ProxyJwtVerifier {
  private keys: Promise<JWTVerifyGetKey> | null = null;

  constructor(private readonly settings: ProxySettings) {}

  private jwks(): Promise<JWTVerifyGetKey> {
    this.keys ??= (async () => {
      if (this.settings.jwksUrl) return createRemoteJWKSet(this.settings.jwksUrl);
      const discovery = new URL(`${this.settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
      const res = await fetch(discovery, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`issuer discovery answered ${res.status}`);
      const doc = (await res.json()) as { jwks_uri?: unknown };
      if (typeof doc.jwks_uri !== 'string') throw new Error('issuer discovery has no jwks_uri');
      return createRemoteJWKSet(new URL(doc.jwks_uri));
    })();
    this.keys.catch(() => {
      this.keys = null;
    });
    return this.keys;
  }

  /** The token of a request: the configured header's value, or the Bearer token of `Authorization`. */
  tokenOf(headers: Headers): string | null {
    const value = headers.get(this.settings.header)?.trim();
    if (!value) return null;
    if (this.settings.header !== 'authorization') return value;
    const m = /^Bearer\s+(\S+)$/i.exec(value);
    return m?.[1] ?? null;
  }

  async verify(headers: Headers): Promise<ProxyVerdict> {
    const token = this.tokenOf(headers);
    if (!token) return { ok: false, reason: 'no token' };
    let keys: JWTVerifyGetKey;
    try {
      keys = await this.jwks();
    } catch (err) {
      return { ok: false, reason: `signing keys unavailable: ${err instanceof Error ? err.message : 'error'}` };
    }
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: this.settings.issuer,
        ...(this.settings.audience ? { audience: this.settings.audience } : {}),
        algorithms,
        requiredClaims: ['sub', 'exp'],
      });
      const identity = toIdentity(payload, this.settings.groupsClaim);
      return identity ? { ok: true, identity } : { ok: false, reason: 'token has no subject' };
    } catch (err) {
      // jose's error codes say why (ERR_JWS_SIGNATURE_VERIFICATION_FAILED, ERR_JWT_EXPIRED, …) without the token.
      return { ok: false, reason: (err as { code?: string }).code ?? 'invalid token' };
    }
  }
}
