import 'server-only';

/**
 * One-line logs. Everything logged goes through `redact`, so a bearer token, a client key or a
 * kubeconfig fragment that slips into an error message never reaches the log.
 */
const patterns: [RegExp, string][] = [
  [/(authorization:\s*)(bearer|basic)\s+[^\s"',]+/gi, '$1$2 [redacted]'],
  [/\b(bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi, '$1 [redacted]'],
  [/-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g, '[redacted pem]'],
  [/((?:token|password|client-key-data|client-certificate-data|certificate-authority-data)["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, '$1[redacted]'],
  [/sim-token-[A-Za-z0-9-]+/g, '[redacted]'],
];

export function redact(text: string): string {
  let out = text;
  for (const [re, replacement] of patterns) out = out.replace(re, replacement);
  return out;
}

export const log = {
  info(message: string): void {
    console.info(`[autoscope] ${redact(message)}`);
  },
  warn(message: string): void {
    console.warn(`[autoscope] ${redact(message)}`);
  },
  error(message: string): void {
    console.error(`[autoscope] ${redact(message)}`);
  },
};
