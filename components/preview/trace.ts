function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `line` names `cluster` as a whole word ("member1" is not in "member10", "a.b" not in "a.bc"). */
export function mentions(line: string, cluster: string): boolean {
  if (!cluster) return false;
  return new RegExp(`(?<![\\w.-])${escapeRegExp(cluster)}(?![\\w-]|\\.\\w)`).test(line);
}

/**
 * The explanation lines behind one cluster's numbers: those that name it, narrowed to the ones with
 * `keyword` when any has it (so an HPA max traces to the maxReplicas split, not to the binding clamp).
 */
export function tracesFor(explanation: readonly string[], cluster: string, keyword?: string): string[] {
  const own = explanation.filter((l) => mentions(l, cluster));
  if (!keyword) return own;
  const narrowed = own.filter((l) => l.includes(keyword));
  return narrowed.length ? narrowed : own;
}
