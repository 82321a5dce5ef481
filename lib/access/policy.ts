import { z } from 'zod';
import { AutoscalerKindSchema } from '../api/autoscaler';

/** A non-empty glob over names: letters, digits, `-`, `.`, `/`, `_`, `*`, `?`. */
const GlobSchema = z
  .string()
  .min(1, 'a glob may not be empty')
  .regex(/^[A-Za-z0-9._/*?-]+$/, 'a glob may hold letters, digits, -, ., _, / and the wildcards * and ?');

/**
 * One grant: the people it is for (users by subject or email, groups by name) and what they may see —
 * autoscalers whose cluster matches one of `clusters`, whose namespace matches one of `namespaces`, of one
 * of `kinds` (all three kinds when left out).
 */
export const AccessRuleSchema = z
  .object({
    name: z.string().min(1).optional(),
    users: z.array(z.string().min(1)).default([]),
    groups: z.array(z.string().min(1)).default([]),
    clusters: z.array(GlobSchema).min(1, 'name at least one cluster glob ("*" for every cluster)'),
    namespaces: z.array(GlobSchema).min(1).default(['*']),
    kinds: z.array(AutoscalerKindSchema).min(1).optional(),
  })
  .strict()
  .refine((r) => r.users.length > 0 || r.groups.length > 0, { message: 'a rule names at least one user or group', path: ['users'] });
export type AccessRule = z.infer<typeof AccessRuleSchema>;

/**
 * The policy file. `defaultRole` is what a signed-in person whom no rule names may see: `none` (nothing)
 * or `read-all` (the whole fleet).
 */
export const AccessPolicySchema = z
  .object({
    defaultRole: z.enum(['none', 'read-all']).default('none'),
    rules: z.array(AccessRuleSchema).default([]),
  })
  .strict();
export type AccessPolicy = z.infer<typeof AccessPolicySchema>;

/** One problem in a policy file, at the path of the offending value (`rules.2.clusters.0`). */
export interface PolicyIssue {
  path: (string | number)[];
  message: string;
}

export type PolicyParse = { ok: true; policy: AccessPolicy } | { ok: false; issues: PolicyIssue[] };

/** Validates a parsed policy document; the caller maps each issue's path to a line of its file. */
export function toAccessPolicy(document: unknown): PolicyParse {
  const parsed = AccessPolicySchema.safeParse(document ?? {});
  if (parsed.success) return { ok: true, policy: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? p : String(p))), message: i.message })),
  };
}
