/**
 * The security headers every response carries, wherever it is answered: by Next (proxy.ts adds them) or by the
 * server's fast path for the hot JSON reads (server/http/fast-path.ts). One list, so the two cannot drift.
 */

/**
 * The Content-Security-Policy with this response's script nonce (pages render per request, so Next puts it on its
 * scripts), under the sign-in settings of `env` (the process environment, passed in).
 */
export function contentSecurityPolicy(nonce: string, env: Readonly<Record<string, string | undefined>>): string {
  const dev = env.NODE_ENV === 'development';
  // Sign-out posts a form whose answer redirects to the provider's end-session page: form-action must allow it.
  let issuer = '';
  try {
    if (env.AUTOSCOPE_AUTH === 'oidc' && env.AUTOSCOPE_OIDC_ISSUER) issuer = ` ${new URL(env.AUTOSCOPE_OIDC_ISSUER).origin}`;
  } catch {
    issuer = '';
  }
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // Charts and React set style attributes, which a nonce cannot cover; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${issuer}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A fresh script nonce: a random UUID, base64-encoded. */
export function newNonce(): string {
  return btoa(crypto.randomUUID());
}

/** The headers, in order, for a response under the policy `csp`. */
export function securityHeaders(csp: string): [name: string, value: string][] {
  return [
    ['content-security-policy', csp],
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'same-origin'],
    ['x-frame-options', 'DENY'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['permissions-policy', 'camera=(), microphone=(), geolocation=()'],
  ];
}
