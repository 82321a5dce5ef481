import 'server-only';
import * as client from 'openid-client';
import type { Identity } from '@/lib/access';
import type { OidcSettings } from './config';
import { isLoopbackHost } from './config';
import { toIdentity } from './identity';
import type { Sessions } from './session-store';

/** Where a sign-in may send the browser back to: a path of this site, never another origin. */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || value.startsWith('/auth/')) return '/';
  return value.length > 2000 ? '/' : value;
}

/**
 * OpenID Connect sign-in (authorization code + PKCE, with state and nonce) through `openid-client`. The
 * provider's metadata is discovered on first use and kept; a failed discovery is tried again next time.
 */
export class OidcSignIn {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(
    readonly settings: OidcSettings,
    private readonly sessions: Sessions,
  ) {}

  config(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        this.settings.issuer,
        this.settings.clientId,
        this.settings.clientSecret ?? undefined,
        this.settings.clientSecret ? client.ClientSecretBasic(this.settings.clientSecret) : client.None(),
        {
          // Plain http only for a provider on loopback (the test and demo provider); config.ts refuses it elsewhere.
          ...(this.settings.issuer.protocol === 'http:' && isLoopbackHost(this.settings.issuer.hostname)
            ? { execute: [client.allowInsecureRequests] }
            : {}),
          timeout: 10,
        },
      )
      .catch((err: unknown) => {
        this.configuration = null;
        throw err;
      });
    return this.configuration;
  }

  /** Starts a sign-in: the provider's authorization URL and the state for the browser's login cookie. */
  async begin(returnTo: string, now: number): Promise<{ url: URL; state: string }> {
    const config = await this.config();
    const codeVerifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = await this.sessions.beginLogin({ codeVerifier, nonce, returnTo: safeReturnTo(returnTo) }, now);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl.href,
      scope: this.settings.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url, state };
  }

  /**
   * Completes a sign-in from the provider's redirect. The state must be the one this browser started with
   * (its login cookie) and still pending; the code is exchanged with the PKCE verifier and the ID token's
   * nonce checked. Groups come from the ID token's claim, else from userinfo.
   */
  async complete(query: URLSearchParams, browserState: string | null, now: number): Promise<{ identity: Identity; returnTo: string }> {
    const state = query.get('state');
    if (!state || !browserState || state !== browserState) throw new Error('state does not match this browser’s sign-in');
    const pending = await this.sessions.takeLogin(state, now);
    if (!pending) throw new Error('unknown or expired sign-in state');
    const config = await this.config();
    const current = new URL(this.settings.redirectUrl.href);
    current.search = query.toString();
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims: Record<string, unknown> = { ...tokens.claims() };
    if (!(this.settings.groupsClaim in claims) || !claims.name) {
      const info = await client.fetchUserInfo(config, tokens.access_token, String(claims.sub));
      for (const [k, v] of Object.entries(info)) if (!(k in claims)) claims[k] = v;
    }
    const identity = toIdentity(claims, this.settings.groupsClaim);
    if (!identity) throw new Error('the ID token has no subject');
    return { identity, returnTo: pending.returnTo };
  }

  /** The provider's end-session URL when it has one (RP-initiated logout), else null. */
  async endSessionUrl(postLogoutRedirect: URL): Promise<URL | null> {
    const config = await this.config().catch(() => null);
    if (!config?.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(config, { client_id: this.settings.clientId, post_logout_redirect_uri: postLogoutRedirect.href });
  }
}
