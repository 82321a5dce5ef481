import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One rule of a ClusterRole, as RBAC reads it. */
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

/** What RBAC authorizes for one request: a resource request's attributes, or a non-resource URL. */
export type RequestAttributes =
  | { kind: 'resource'; apiGroup: string; resource: string; subresource: string; name: string; namespace: string; verb: string }
  | { kind: 'nonResource'; path: string; verb: 'get' };

export const rbacPath = path.resolve(__dirname, '..', 'docs', 'rbac.yaml');

/** The rules of the ClusterRole in docs/rbac.yaml. */
export function loadRules(file = rbacPath): PolicyRule[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as { kind?: string; rules?: PolicyRule[] });
  const role = docs.find((d) => d.kind === 'ClusterRole');
  if (!role?.rules) throw new Error(`${file} has no ClusterRole with rules`);
  return role.rules;
}

/**
 * The request attributes the API server derives from a GET (k8s.io/apiserver's RequestInfoFactory, for the
 * paths Autoscope uses): `/api/v1/…` is the core group, `/apis/{group}/{version}/…` a named group, an
 * optional `namespaces/{ns}/` prefix, then `{resource}[/{name}[/{subresource}]]`; a GET with `watch=1` or
 * `watch=true` is `watch`, with a name `get`, else `list`. Discovery and `/version` are non-resource URLs.
 */
export function requestAttributes(pathAndQuery: string): RequestAttributes {
  const url = new URL(pathAndQuery, 'https://cluster.invalid');
  const segs = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let rest: string[];
  let apiGroup: string;
  if (segs[0] === 'api' && segs.length >= 3) {
    apiGroup = '';
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    apiGroup = segs[1] ?? '';
    rest = segs.slice(3);
  } else {
    return { kind: 'nonResource', path: url.pathname, verb: 'get' };
  }
  let namespace = '';
  // `namespaces/{ns}/{resource}…` is namespaced; `namespaces` or `namespaces/{name}` alone is the Namespace resource.
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1] ?? '';
    rest = rest.slice(2);
  }
  // Only the first part after the name is the subresource; a proxy's remaining path is not part of the check.
  const [resource = '', name = '', subresource = ''] = rest;
  const watch = ['1', 'true'].includes(url.searchParams.get('watch') ?? '');
  return { kind: 'resource', apiGroup, resource, subresource, name, namespace, verb: watch ? 'watch' : name ? 'get' : 'list' };
}

const matches = (values: string[], value: string): boolean => values.includes('*') || values.includes(value);

/** RBAC's rule match (k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac): verb, group, and resource or `resource/subresource`. */
export function allows(rules: PolicyRule[], attrs: RequestAttributes): boolean {
  // Discovery and /version are granted to every authenticated user (system:discovery, system:basic-user).
  if (attrs.kind === 'nonResource') return /^\/(api|apis)(\/[^/]+){0,2}$|^\/version$|^\/openapi\//.test(attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return rules.some(
    (r) =>
      matches(r.verbs, attrs.verb) && matches(r.apiGroups, attrs.apiGroup) && (r.resources.includes('*') || r.resources.includes(combined)),
  );
}

const proxyPrefix = /^\/apis\/cluster\.karmada\.io\/v1alpha1\/clusters\/([^/]+)\/proxy(\/.*)?$/;

/**
 * Whether one GET is allowed, and why not. A request through Karmada's member proxy needs `get` on
 * `clusters/proxy` in the control plane, and the member then authorizes the inner request against the same role.
 */
export function checkRequest(rules: PolicyRule[], pathAndQuery: string): string | null {
  const [pathname = '', query = ''] = pathAndQuery.split('?');
  const proxied = proxyPrefix.exec(pathname);
  if (proxied) {
    const outer = requestAttributes(pathname);
    if (!allows(rules, outer)) return `${pathAndQuery}: the control plane denies ${JSON.stringify(outer)}`;
    const inner = `${proxied[2] ?? '/'}${query ? `?${query}` : ''}`;
    const denied = checkRequest(rules, inner);
    return denied ? `${pathAndQuery}: the member denies ${denied}` : null;
  }
  const attrs = requestAttributes(pathAndQuery);
  return allows(rules, attrs) ? null : `${pathAndQuery}: ${JSON.stringify(attrs)}`;
}
