import 'server-only';
import { log } from '../log';

export type AuditEvent = 'sign-in' | 'sign-in-failed' | 'sign-out' | 'denied' | 'rate-limited';

/**
 * One JSON line per sign-in, sign-out and denied request. Fields are chosen by the callers from a fixed
 * set — who, what path, why — and never carry a token, a cookie or a secret.
 */
export function audit(event: AuditEvent, fields: { subject?: string; name?: string; groups?: string[]; path?: string; method?: string; reason?: string; address?: string; mode?: string }): void {
  const line = JSON.stringify({ audit: event, at: new Date().toISOString(), ...fields });
  if (event === 'sign-in' || event === 'sign-out') log.info(line);
  else log.warn(line);
}
