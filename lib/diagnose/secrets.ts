/**
 * Credentials a paste must not carry. Autoscope refuses such a paste as a whole, without reading it
 * further, and says which kind it found (never the value).
 */
const PATTERNS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'a Secret object', pattern: /^[\s#>-]*"?kind"?\s*:\s*"?Secret"?\s*,?\s*$/m },
  { what: 'a kubeconfig (kind: Config)', pattern: /^[\s#>-]*"?kind"?\s*:\s*"?Config"?\s*,?\s*$/m },
  {
    what: 'kubeconfig credentials (client-key-data, token or password of a user)',
    pattern: /^[\s#>-]*"?(client-key-data|client-certificate-data|auth-provider|id-token|refresh-token)"?\s*:/m,
  },
  { what: 'a private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { what: 'a bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}/ },
  { what: 'a JSON Web Token (a service account token)', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { what: 'a token field', pattern: /^[\s#>-]*"?token"?\s*:\s*"?[A-Za-z0-9._~+/=-]{16,}/m },
  { what: 'an AWS access key', pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/ },
];

/** What kind of credential the paste holds, or null. */
export function findCredential(text: string): string | null {
  for (const { what, pattern } of PATTERNS) if (pattern.test(text)) return what;
  return null;
}
