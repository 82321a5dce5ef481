/** `member1 2, member2 3, member3 5`: the per-cluster numbers explanations and notes print. */
export function formatSplit(names: readonly string[], values: ReadonlyMap<string, number>): string {
  if (names.length === 0) return '(no cluster)';
  return names.map((name) => `${name} ${values.get(name) ?? 0}`).join(', ');
}

/** `2/3/5`: the compact form the proposal's examples use. */
export function formatSlash(names: readonly string[], values: ReadonlyMap<string, number>): string {
  return names.map((name) => values.get(name) ?? 0).join('/');
}

/** Exact quotas `N·w_i/Σw` with two decimals, for "how was this computed" lines. */
export function formatQuotas(total: number, weights: readonly (readonly [string, number])[]): string {
  const sum = weights.reduce((acc, [, w]) => acc + w, 0);
  if (sum === 0) return '(no weight)';
  return weights.map(([name, w]) => `${name} ${((total * w) / sum).toFixed(2)}`).join(', ');
}
