/**
 * A glob over cluster and namespace names: `*` matches any run of characters (a `/` too, so
 * `karmada-global/*` names every member of a Karmada control plane), `?` exactly one; everything else is
 * literal. Anchored at both ends.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[\\^$.+()[\]{}|/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** True when `name` matches at least one of the globs. */
export function matchesAnyGlob(globs: readonly RegExp[], name: string): boolean {
  return globs.some((g) => g.test(name));
}
