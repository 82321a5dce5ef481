import http from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** A person the test provider knows; any password signs them in (it is a demo and test provider). */
export interface TestUser {
  id: string;
  name: string;
  email: string;
  groups: string[];
}

/** The demo's people: two teams and one person no policy rule names. */
export const demoUsers: TestUser[] = [
  { id: 'alice', name: 'Alice Example', email: 'alice@example.com', groups: ['team-web'] },
  { id: 'bob', name: 'Bob Example', email: 'bob@example.com', groups: ['team-platform'] },
  { id: 'carol', name: 'Carol Example', email: 'carol@example.com', groups: ['contractors'] },
];

export interface TestProviderOptions {
  port: number;
  /** The Autoscope instances allowed to sign in: their redirect URLs (…/auth/callback) and post-logout URLs. */
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  clientId?: string;
  clientSecret?: string;
  users?: TestUser[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop: () => Promise<void>;
}

/**
 * A real OpenID Connect provider (panva's `oidc-provider`) on 127.0.0.1 for the integration tests, the e2e
 * run and the demo (AUTOSCOPE_DEMO_AUTH=1): authorization code with PKCE required, a login page that takes
 * a user name (any password), no consent screen for the one client, `groups` in the ID token and userinfo,
 * and an end-session endpoint.
 */
export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const users = new Map((options.users ?? demoUsers).map((u) => [u.id, u]));
  const issuer = `http://127.0.0.1:${options.port}`;
  const clientId = options.clientId ?? 'autoscope';
  const clientSecret = options.clientSecret ?? 'autoscope-demo-secret';
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-provider', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['autoscope-test-provider-cookie-key'] },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    // The ID token carries the profile, email and groups claims too (not only userinfo).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    findAccount: (_ctx, id) => {
      const user = users.get(id);
      if (!user) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, name: user.name, preferred_username: id, email: user.email, groups: user.groups }),
      };
    },
    // One first-party client: grant what it asks without a consent screen.
    loadExistingGrant: async (ctx) => {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? (ctx.oidc.client ? ctx.oidc.session?.grantIdFor(ctx.oidc.client.clientId) : undefined);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      if (!ctx.oidc.client || !ctx.oidc.session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid profile email groups');
      grant.addOIDCClaims(['sub', 'name', 'preferred_username', 'email', 'groups']);
      await grant.save();
      return grant;
    },
    ttl: { AccessToken: 3600, IdToken: 3600, Session: 3600, Interaction: 600, Grant: 3600 },
  });
  const handle = provider.callback();
  const server = http.createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
