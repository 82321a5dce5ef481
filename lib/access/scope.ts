import type { AutoscalerKind } from '../api/autoscaler';
import { parseAutoscalerId } from '../api/autoscaler';
import { globToRegExp, matchesAnyGlob } from './glob';
import type { AccessPolicy, AccessRule } from './policy';

/** Who is asking: from an OIDC session or a verified JWT. */
export interface Identity {
  /** The token's `sub`. */
  subject: string;
  /** For people to read: `name`, else `preferred_username`, else `email`, else `sub`. */
  name: string;
  email: string | null;
  groups: string[];
}

interface Grant {
  rule: string;
  clusters: RegExp[];
  namespaces: RegExp[];
  /** null: every kind. */
  kinds: ReadonlySet<AutoscalerKind> | null;
}

/**
 * What one person may see, decided once per request from the policy and their identity. `all` is the
 * whole fleet (no sign-in configured, or `defaultRole: read-all` for someone no rule names); otherwise
 * the union of the grants of every rule that names them (none at all: they see nothing).
 */
export type AccessScope = { all: true; rules: string[]; key: string } | { all: false; rules: string[]; grants: Grant[]; key: string };

export const fullAccess: AccessScope = { all: true, rules: [], key: 'all' };

function ruleName(rule: AccessRule, index: number): string {
  return rule.name ?? `rules[${index}]`;
}

function namesPerson(rule: AccessRule, who: Identity): boolean {
  const email = who.email?.toLowerCase();
  if (rule.users.some((u) => u === who.subject || (email !== undefined && u.toLowerCase() === email))) return true;
  return rule.groups.some((g) => who.groups.includes(g));
}

/** The scope of one person under a policy. */
export function scopeFor(policy: AccessPolicy, who: Identity): AccessScope {
  const grants: Grant[] = [];
  const sources: unknown[] = [];
  policy.rules.forEach((rule, i) => {
    if (!namesPerson(rule, who)) return;
    sources.push([rule.clusters, rule.namespaces, rule.kinds ?? null]);
    grants.push({
      rule: ruleName(rule, i),
      clusters: rule.clusters.map(globToRegExp),
      namespaces: rule.namespaces.map(globToRegExp),
      kinds: rule.kinds ? new Set(rule.kinds) : null,
    });
  });
  if (grants.length === 0 && policy.defaultRole === 'read-all') return { all: true, rules: ['defaultRole: read-all'], key: 'all' };
  // Two people whose rules grant the same globs share a key (and so cached views of the fleet).
  return { all: false, rules: grants.map((g) => g.rule), grants, key: JSON.stringify(sources) };
}

/** A cluster exists for a person when one of their grants names it (whatever namespaces it allows there). */
export function canSeeCluster(scope: AccessScope, cluster: string): boolean {
  return scope.all || scope.grants.some((g) => matchesAnyGlob(g.clusters, cluster));
}

/** One autoscaler, by its cluster, namespace and kind. */
export function canSeeAutoscaler(scope: AccessScope, ref: { cluster: string; namespace: string; kind: AutoscalerKind }): boolean {
  return (
    scope.all ||
    scope.grants.some(
      (g) =>
        (g.kinds === null || g.kinds.has(ref.kind)) &&
        matchesAnyGlob(g.clusters, ref.cluster) &&
        matchesAnyGlob(g.namespaces, ref.namespace),
    )
  );
}

/** An autoscaler id (`cluster/kind/namespace/name`); an id that does not parse is never visible. */
export function canSeeAutoscalerId(scope: AccessScope, id: string): boolean {
  if (scope.all) return true;
  const ref = parseAutoscalerId(id);
  return ref !== null && canSeeAutoscaler(scope, ref);
}
