import { z } from 'zod';

/** How people are identified: see docs/access.md. */
export const AuthModeSchema = z.enum(['local', 'none', 'oidc', 'proxy']);
export type AuthMode = z.infer<typeof AuthModeSchema>;

/** GET /api/v1/me: who the server thinks is asking, for the header and the "no sign-in" banner. */
export const MeResponseSchema = z.object({
  mode: AuthModeSchema,
  user: z.object({ name: z.string(), email: z.string().nullable(), groups: z.array(z.string()) }).nullable(),
  /** The names of the policy rules that apply (empty without a policy, or for nobody signed in). */
  rules: z.array(z.string()),
  /** Whether the person may see the whole fleet. */
  seesAll: z.boolean(),
  /** True when no sign-in protects a server others can reach (AUTOSCOPE_AUTH=none): pages say so. */
  openBanner: z.boolean(),
  /** Where sign-out is posted to (oidc mode), else null. */
  signOutPath: z.string().nullable(),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;
