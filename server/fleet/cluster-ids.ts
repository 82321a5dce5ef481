/**
 * The index's ids grouped by cluster, each cluster's in one array, and every id in id order read from them.
 *
 * An array per cluster, not a Set: a Set of 2,000 ids is a hash table of ~40 KiB (20 bytes an id), an array 8 bytes an
 * id. Ids come and go rarely (most changes are status updates), so the arrays are appended to and sorted when read in
 * order, and a removal is a search and a splice within one cluster. A list arrives in key order (namespace, name),
 * which is id order within a cluster, so a cold start appends ids that are already sorted and never sorts them.
 *
 * Id order across clusters (`inIdOrder`) needs no array of its own: an id is `encodeURIComponent(cluster)/…`, and the
 * encoded name holds no `/`, so two ids of different clusters compare as their encoded names followed by `/` do (the
 * first difference falls within that prefix). Clusters sorted by that key, each cluster's ids sorted, read one after
 * the other, are every id sorted. (The name alone would not do: `a` sorts before `a-b`, but `a/…` after `a-b/…`.)
 */
export class ClusterIds {
  private readonly clusters = new Map<string, { ids: string[]; sorted: boolean }>();
  /** The clusters in the order of their ids (`idKey`); null when a cluster came or went. */
  private order: string[] | null = null;

  /** Adds an id the cluster does not have yet (the index adds each id once, when its entry is made). */
  add(cluster: string, id: string): void {
    let group = this.clusters.get(cluster);
    if (!group) {
      group = { ids: [], sorted: true };
      this.clusters.set(cluster, group);
      this.order = null;
    }
    const last = group.ids[group.ids.length - 1];
    if (last !== undefined && last > id) group.sorted = false;
    group.ids.push(id);
  }

  /** Removes an id; false when the cluster did not have it. Keeps the cluster's order. */
  delete(cluster: string, id: string): boolean {
    const group = this.clusters.get(cluster);
    const at = group ? group.ids.indexOf(id) : -1;
    if (!group || at < 0) return false;
    group.ids.splice(at, 1);
    if (group.ids.length === 0) {
      this.clusters.delete(cluster);
      this.order = null;
    }
    return true;
  }

  /** Forgets the cluster and returns its ids. */
  take(cluster: string): string[] {
    const ids = this.clusters.get(cluster)?.ids ?? [];
    if (this.clusters.delete(cluster)) this.order = null;
    return ids;
  }

  /** The cluster's ids in no particular order; read-only, and changed by the next `add` or `delete`. */
  of(cluster: string): readonly string[] {
    return this.clusters.get(cluster)?.ids ?? [];
  }

  /** The cluster's ids sorted; read-only, and changed by the next `add` or `delete`. */
  sortedOf(cluster: string): readonly string[] {
    const group = this.clusters.get(cluster);
    if (!group) return [];
    if (!group.sorted) {
      group.ids.sort();
      group.sorted = true;
    }
    return group.ids;
  }

  /** Clusters with at least one id, by name. */
  names(): string[] {
    return [...this.clusters.keys()].sort();
  }

  /** Every id, sorted. */
  *inIdOrder(): Generator<string> {
    this.order ??= [...this.clusters.keys()].sort((a, b) => (idKey(a) < idKey(b) ? -1 : idKey(a) > idKey(b) ? 1 : 0));
    for (const cluster of this.order) yield* this.sortedOf(cluster);
  }
}

/** What a cluster's ids start with: its encoded name and the separator after it. */
function idKey(cluster: string): string {
  return `${encodeURIComponent(cluster)}/`;
}
