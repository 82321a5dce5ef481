import 'server-only';
import { log } from '../log';

export type AuditEvent = 'sign-in' | 'sign-in-failed' | 'sign-out' | 'denied' | 'rate-limited';

export interface AuditFields {
  subject?: string;
  name?: string;
  groups?: string[];
  path?: string;
  method?: string;
  reason?: string;
  address?: string;
  mode?: string;
}

/**
 * One JSON log line per sign-in, sign-out and denied request (`audit` names the event). The fields come
 * from a fixed set — who, which path, why — and never carry a token, a cookie or a secret.
 */
export function audit(event: AuditEvent, fields: AuditFields): void {
  const { groups, ...rest } = fields;
  const line = { audit: event, ...rest, ...(groups ? { groups: groups.join(',') } : {}) };
  if (event === 'sign-in' || event === 'sign-out') log.info(`audit ${event}`, line);
  else log.warn(`audit ${event}`, line);
}
