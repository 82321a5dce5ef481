import 'server-only';
import type { Identity } from '@/lib/access';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** A person from ID-token, userinfo or proxy-JWT claims; groups from the configured claim (a list, or one name). */
export function toIdentity(claims: Readonly<Record<string, unknown>>, groupsClaim: string): Identity | null {
  const subject = text(claims.sub);
  if (!subject) return null;
  const raw = claims[groupsClaim];
  const groups = Array.isArray(raw)
    ? raw.filter((g): g is string => typeof g === 'string' && g.length > 0)
    : text(raw)
      ? [text(raw) as string]
      : [];
  const email = text(claims.email);
  return { subject, name: text(claims.name) ?? text(claims.preferred_username) ?? email ?? subject, email, groups: [...new Set(groups)] };
}
