/**
 * Reading a V8 heap snapshot (`.heapsnapshot`, as `--heapsnapshot-signal` writes it) to say what holds the memory:
 * the size a set of objects retains (what would become unreachable without them: the objects, and everything only
 * they lead to), and what that is made of, by property path. Chrome DevTools shows one object's retained size; what
 * a benchmark needs is the retained size of *every* DTO together, or of every informer cache, divided by the fleet.
 * Hand-written: no maintained npm package reads snapshots outside DevTools (the format is documented in V8's
 * `heap-snapshot-generator.h`: flat `nodes` and `edges` arrays described by `snapshot.meta`).
 */
import { readFileSync, statSync } from 'node:fs';

interface SnapshotJson {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** V8 cannot hold a longer string (2^29 − 24 characters): a larger snapshot needs a streaming reader. */
const MAX_BYTES = 2 ** 29 - 24;

export class HeapSnapshot {
  private readonly nodeFields: number;
  private readonly edgeFields: number;
  private readonly nodeTypes: string[];
  private readonly edgeTypes: string[];
  private readonly firstEdge: Uint32Array;
  private readonly typeAt: number;
  private readonly nameAt: number;
  private readonly selfAt: number;
  private readonly edgeTypeAt: number;
  private readonly edgeNameAt: number;
  private readonly edgeToAt: number;
  private readonly weak: number;
  readonly count: number;

  constructor(private readonly json: SnapshotJson) {
    const meta = json.snapshot.meta;
    this.nodeFields = meta.node_fields.length;
    this.edgeFields = meta.edge_fields.length;
    this.nodeTypes = meta.node_types[0];
    this.edgeTypes = meta.edge_types[0];
    this.typeAt = meta.node_fields.indexOf('type');
    this.nameAt = meta.node_fields.indexOf('name');
    this.selfAt = meta.node_fields.indexOf('self_size');
    const edgeCountAt = meta.node_fields.indexOf('edge_count');
    this.edgeTypeAt = meta.edge_fields.indexOf('type');
    this.edgeNameAt = meta.edge_fields.indexOf('name_or_index');
    this.edgeToAt = meta.edge_fields.indexOf('to_node');
    this.weak = this.edgeTypes.indexOf('weak');
    this.count = json.nodes.length / this.nodeFields;
    this.firstEdge = new Uint32Array(this.count + 1);
    for (let i = 0, e = 0; i < this.count; i++) {
      this.firstEdge[i] = e;
      e += (json.nodes[i * this.nodeFields + edgeCountAt] ?? 0) * this.edgeFields;
      this.firstEdge[i + 1] = e;
    }
  }

  static read(file: string): HeapSnapshot {
    const bytes = statSync(file).size;
    if (bytes > MAX_BYTES)
      throw new Error(`${file} is ${(bytes / 2 ** 20).toFixed(0)} MiB; this reader takes up to 512 MiB (a smaller fleet: BENCH_CLUSTERS)`);
    return new HeapSnapshot(JSON.parse(readFileSync(file, 'utf8')) as SnapshotJson);
  }

  type(node: number): string {
    return this.nodeTypes[this.json.nodes[node * this.nodeFields + this.typeAt] ?? 0] ?? '?';
  }

  selfSize(node: number): number {
    return this.json.nodes[node * this.nodeFields + this.selfAt] ?? 0;
  }

  /** The bytes of every node. */
  totalSize(): number {
    let total = 0;
    for (let v = 0; v < this.count; v++) total += this.selfSize(v);
    return total;
  }

  /** Each edge of `node` as `[kind, name, target]` (name: a property's name, an element's index as text). */
  *edges(node: number): Generator<[string, string, number]> {
    const { edges, strings } = this.json;
    for (let e = this.firstEdge[node] ?? 0; e < (this.firstEdge[node + 1] ?? 0); e += this.edgeFields) {
      const kind = this.edgeTypes[edges[e + this.edgeTypeAt] ?? 0] ?? '?';
      const raw = edges[e + this.edgeNameAt] ?? 0;
      const name = kind === 'element' || kind === 'hidden' ? String(raw) : (strings[raw] ?? '');
      yield [kind, name, (edges[e + this.edgeToAt] ?? 0) / this.nodeFields];
    }
  }

  /** A JavaScript object's own properties by name. */
  properties(node: number): Map<string, number> {
    const out = new Map<string, number>();
    for (const [kind, name, to] of this.edges(node)) if (kind === 'property') out.set(name, to);
    return out;
  }

  /** Every object that has all of these properties (how a class instance is found when the build minifies class names). */
  objectsWith(names: readonly string[]): number[] {
    const out: number[] = [];
    for (let v = 0; v < this.count; v++) {
      if (this.type(v) !== 'object') continue;
      const own = this.properties(v);
      if (names.every((n) => own.has(n))) out.push(v);
    }
    return out;
  }

  /** Marks what the roots reach by strong edges, never entering `blocked`. */
  private reach(blocked: Uint8Array): Uint8Array {
    const seen = new Uint8Array(this.count);
    const { edges } = this.json;
    const stack = [0];
    seen[0] = 1;
    while (stack.length > 0) {
      const v = stack.pop() ?? 0;
      for (let e = this.firstEdge[v] ?? 0; e < (this.firstEdge[v + 1] ?? 0); e += this.edgeFields) {
        if (edges[e + this.edgeTypeAt] === this.weak) continue;
        const w = (edges[e + this.edgeToAt] ?? 0) / this.nodeFields;
        if (seen[w] || blocked[w]) continue;
        seen[w] = 1;
        stack.push(w);
      }
    }
    return seen;
  }

  /** The bytes `set` retains: everything reachable now and not without the set's nodes. */
  retained(set: readonly number[]): number {
    const blocked = new Uint8Array(this.count);
    for (const v of set) blocked[v] = 1;
    const all = this.reach(new Uint8Array(this.count));
    const without = this.reach(blocked);
    let bytes = 0;
    for (let v = 0; v < this.count; v++) if (all[v] && !without[v]) bytes += this.selfSize(v);
    return bytes;
  }

  /**
   * What `set` retains, by the property path from the set's nodes (`.status.conditions[]`), largest first; hidden
   * V8 internals are shown in angle brackets (`<map>`: a hidden class, `<elements>`: an array's backing store).
   */
  composition(set: readonly number[], top = 20): { path: string; bytes: number; count: number }[] {
    const blocked = new Uint8Array(this.count);
    for (const v of set) blocked[v] = 1;
    const seen = this.reach(blocked);
    const label = new Map<number, string>();
    const byPath = new Map<string, { bytes: number; count: number }>();
    const queue: number[] = [];
    for (const v of set)
      if (!seen[v]) {
        seen[v] = 1;
        label.set(v, '');
        queue.push(v);
      }
    while (queue.length > 0) {
      const v = queue.pop() ?? 0;
      const here = label.get(v) ?? '';
      const key = `${here || '.'} (${this.type(v)})`;
      const row = byPath.get(key) ?? { bytes: 0, count: 0 };
      row.bytes += this.selfSize(v);
      row.count += 1;
      byPath.set(key, row);
      for (const [kind, name, to] of this.edges(v)) {
        if (kind === 'weak' || seen[to]) continue;
        seen[to] = 1;
        const step = kind === 'element' ? '[]' : kind === 'property' ? `.${name}` : `.<${/^\d+$/.test(name) ? '#' : name || kind}>`;
        label.set(to, here.length > 120 ? here : `${here}${step}`);
        queue.push(to);
      }
    }
    return [...byPath]
      .map(([path, r]) => ({ path, ...r }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, top);
  }
}
