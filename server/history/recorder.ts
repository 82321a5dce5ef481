import 'server-only';
import type { Autoscaler, ClusterState, EventDto } from '@/lib/api';
import { parseAutoscalerId } from '@/lib/api';
import { conditionSince } from '@/lib/history';
import { conditionMeaning } from '@/lib/triage';
import { StringPool } from '../fleet/string-pool';

/** Which object a row is about. */
export interface ObjectRef {
  id: string;
  cluster: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

export interface ObjectRow extends ObjectRef {
  firstSeen: string;
}

/** One condition transition as both stores keep it. */
export interface TransitionRow extends ObjectRef {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  at: string;
  reasonSince: string;
  prevStatus: string | null;
  prevReason: string | null;
  notable: boolean;
  resourceVersion: string | null;
}

export interface ReplicaSample {
  current: number | null;
  desired: number | null;
  min: number | null;
  max: number | null;
}

/**
 * What the recorder asks a store to write, in the order it decided it. Every write names its cluster: a store
 * shared by replicas checks each against the lease of the cluster it belongs to.
 */
export type HistoryWrite =
  | { op: 'object'; cluster: string; row: ObjectRow }
  | { op: 'deleted'; cluster: string; id: string; at: string }
  | { op: 'transition'; cluster: string; row: TransitionRow }
  /** The open segment's message changed (a message alone is not a transition). */
  | { op: 'message'; cluster: string; id: string; type: string; message: string | null }
  | { op: 'sample'; cluster: string; id: string; at: string; sample: ReplicaSample }
  | { op: 'event'; cluster: string; id: string; event: EventDto }
  | { op: 'clusterState'; cluster: string; state: ClusterState; at: string; error: string | null }
  /** Shared stores only: an autoscaler as the index holds it now (null: gone), for the replicas that follow the cluster. */
  | { op: 'current'; cluster: string; id: string; body: unknown }
  /** Shared stores only: a cluster's status now, for the replicas that follow it. */
  | { op: 'status'; cluster: string; status: unknown };

/** An open segment as a store reads it back at start. */
export type OpenConditionRow = Pick<TransitionRow, 'id' | 'type' | 'status' | 'reason' | 'message' | 'at' | 'reasonSince' | 'uid'>;

/** What a store reads back at start: the objects not deleted, their open segments, their last replica sample. */
export interface RecorderSnapshot {
  objects: { id: string; uid: string; firstSeen: string }[];
  open: OpenConditionRow[];
  samples: ({ id: string } & ReplicaSample)[];
}

interface OpenCondition {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  /** Where the segment starts (the status's lastTransitionTime on first sight). */
  at: string;
  /**
   * Since when Autoscope knows the status *and reason* held: `at` for a change it saw, but the first-sight
   * time otherwise, because lastTransitionTime moves only on status flips and says nothing about the reason.
   */
  reasonSince: string;
  uid: string;
}

/**
 * What an open segment is of: a condition's type, status, reason and message. Equal heads are one object, shared by
 * every autoscaler whose segment is in that state (`HistoryRecorder.head`): across a fleet a few hundred heads stand
 * for hundreds of thousands of segments. `uid` only on a segment read back at start whose object has another uid.
 */
interface SegmentHead {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  uid?: string;
}

/** Open segments kept in `Tracked`'s own fields (an HPA has three conditions); any more are in `more`. */
const IN_PLACE = 3;
/** The fields of one segment in `Tracked.more`, in this order: its head, where it starts, its reason's since. */
const MORE_FIELDS = 3;

/** The head of the `k`th open segment, or null past the last (segments are kept without gaps, in order of opening). */
function headAt(t: Tracked, k: number): SegmentHead | null {
  switch (k) {
    case 0:
      return t.h0;
    case 1:
      return t.h1;
    case 2:
      return t.h2;
    default:
      return (t.more?.[(k - IN_PLACE) * MORE_FIELDS] as SegmentHead | undefined) ?? null;
  }
}

/** Where the `k`th open segment starts, and since when its reason holds. */
function timesAt(t: Tracked, k: number): { at: string; reasonSince: string } {
  switch (k) {
    case 0:
      return { at: t.a0, reasonSince: t.s0 };
    case 1:
      return { at: t.a1, reasonSince: t.s1 };
    case 2:
      return { at: t.a2, reasonSince: t.s2 };
    default: {
      const i = (k - IN_PLACE) * MORE_FIELDS;
      return { at: t.more?.[i + 1] as string, reasonSince: t.more?.[i + 2] as string };
    }
  }
}

/** Sets the `k`th open segment (at most one past the last). */
function putAt(t: Tracked, k: number, head: SegmentHead, at: string, reasonSince: string): void {
  switch (k) {
    case 0:
      t.h0 = head;
      t.a0 = at;
      t.s0 = reasonSince;
      return;
    case 1:
      t.h1 = head;
      t.a1 = at;
      t.s1 = reasonSince;
      return;
    case 2:
      t.h2 = head;
      t.a2 = at;
      t.s2 = reasonSince;
      return;
    default: {
      const i = (k - IN_PLACE) * MORE_FIELDS;
      // A new array of exactly one segment more: `push` grows the backing store past what it needs.
      if (!t.more || i >= t.more.length) t.more = (t.more ?? []).concat([head, at, reasonSince]);
      else {
        t.more[i] = head;
        t.more[i + 1] = at;
        t.more[i + 2] = reasonSince;
      }
    }
  }
}

/** The `k`th open segment as an object (made when read: the tracked autoscaler keeps only its fields). */
function openAt(t: Tracked, k: number, head: SegmentHead): OpenCondition {
  const { at, reasonSince } = timesAt(t, k);
  return { type: head.type, status: head.status, reason: head.reason, message: head.message, at, reasonSince, uid: head.uid ?? t.uid };
}

/** The place of the open segment of `type` (-1: none), or of the first free one with `free`. */
function openIndex(t: Tracked, type: string, free = false): number {
  for (let k = 0; ; k++) {
    const head = headAt(t, k);
    if (!head) return free ? k : -1;
    if (head.type === type) return k;
  }
}

/** No open segments. */
function closeSegments(t: Tracked): void {
  t.h0 = t.h1 = t.h2 = null;
  t.a0 = t.s0 = t.a1 = t.s1 = t.a2 = t.s2 = '';
  t.more = null;
}

/** Every open segment of a tracked autoscaler, as objects. */
function openSegments(t: Tracked | undefined): OpenCondition[] {
  const out: OpenCondition[] = [];
  if (t) for (let k = 0, head = headAt(t, 0); head; head = headAt(t, ++k)) out.push(openAt(t, k, head));
  return out;
}

/**
 * Where the recorder keeps its `Tracked` per autoscaler id (what of a Map it uses): a Map of its own by default; the
 * index's entries once an index adopts it (`HistoryRecorder.keepStateIn`), so the fleet's ids are one hash table, not
 * two (a Map of 100,000 was 3.7 MiB of table in bench:heap's snapshot).
 */
export interface TrackedTable {
  get(id: string): TrackedAutoscaler | undefined;
  set(id: string, state: TrackedAutoscaler): void;
  delete(id: string): void;
  /** Every id it holds state for. */
  keys(): Iterable<string>;
}

/**
 * What the recorder keeps of one autoscaler while it lives, in one object (five Maps keyed by id, a `{ uid,
 * firstSeen }` and a replica-sample object each cost ~0.4 KiB more per autoscaler in a heap snapshot at 20,000).
 */
class Tracked {
  /**
   * Open segments, one per condition type: the first three in these fields (a shared head, where it starts, since when
   * its reason holds; a null head: none), any more flat in `more`. An object per segment and the array holding them
   * were ~0.3 KiB an autoscaler (`npm run bench:heap`: three conditions each); a flat array of every field, ~0.21 KiB;
   * of shared heads and times, ~0.12 KiB; in place, 72 bytes.
   */
  h0: SegmentHead | null = null;
  a0 = '';
  s0 = '';
  h1: SegmentHead | null = null;
  a1 = '';
  s1 = '';
  h2: SegmentHead | null = null;
  a2 = '';
  s2 = '';
  more: (SegmentHead | string)[] | null = null;
  /**
   * The last replica sample written (null until one is): shared, like the heads, by every autoscaler whose last sample
   * had these four counts (`HistoryRecorder.sample`), where four fields of its own were 24 bytes more an autoscaler.
   */
  sample: Readonly<ReplicaSample> | null = null;
  /** Since when current ≠ desired; null while they agree. */
  mismatchSince: string | null = null;
  /** The first sight of each problem code, flat `[code, at, code, at, …]`; null when it has none. */
  problems: string[] | null = null;

  constructor(
    public uid: string,
    public firstSeen: string,
  ) {}
}

/** The recorder's state of one autoscaler, opaque to whoever holds it for the recorder (`TrackedTable`). */
export type TrackedAutoscaler = Tracked;

/** Whether two samples have the same counts. */
function sameSample(a: Readonly<ReplicaSample>, b: Readonly<ReplicaSample>): boolean {
  return a.current === b.current && a.desired === b.desired && a.min === b.min && a.max === b.max;
}

/** Whether an autoscaler's id names its cluster, kind, namespace and name (what a deferred first sight's rows take from it). */
function idNames(a: Autoscaler): boolean {
  const ref = parseAutoscalerId(a.id);
  return ref !== null && ref.cluster === a.cluster && ref.kind === a.kind && ref.namespace === a.namespace && ref.name === a.name;
}

/** Whether no two conditions have one type (as the API keeps them: one per type). */
function distinctTypes(conditions: readonly { type: string }[]): boolean {
  for (let i = 1; i < conditions.length; i++) for (let j = 0; j < i; j++) if (conditions[i]?.type === conditions[j]?.type) return false;
  return true;
}

/** Whether a flat `[code, at, …]` list has the code. */
function codeIn(pairs: readonly string[], code: string): boolean {
  for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === code) return true;
  return false;
}

/**
 * Every stored time as `toISOString()` (milliseconds, `Z`): times compare as strings, and `…:01Z` sorts after
 * `…:01.500Z`, so the API's whole-second times must not be mixed in as they are.
 */
export function iso(t: string | null | undefined): string | null {
  if (!t) return null;
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return null;
  // The API's own shape (`2026-11-25T03:14:25Z`) and the stored one (`….000Z`) need no Date: in a Next.js server
  // every `new Date` goes through its wrapper (two AsyncLocalStorage reads), ~1.2 s of a 100,000-HPA sync. Only
  // fields already in range (Date.parse rolls Feb 30 or 24:00 over to the next day) are kept as written.
  const fields = apiTime.exec(t);
  if (fields && inRange(Number(fields[1]), Number(fields[2]), Number(fields[3]), Number(fields[4]), Number(fields[5]), Number(fields[6])))
    return fields[7] ? t : `${t.slice(0, 19)}.000Z`;
  return new Date(ms).toISOString();
}

/** `YYYY-MM-DDTHH:MM:SSZ` as the API writes it, or with milliseconds as `toISOString` does. */
const apiTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{3})?Z$/;
const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Every field names what it says: a date that exists, a time of day before 24:00. */
function inRange(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (daysInMonth[month - 1] ?? 0) + (leap ? 1 : 0) && hour < 24 && minute < 60 && second < 60;
}

/**
 * What history records, decided in one place for every store: a transition is a change of type, status or
 * reason; a message-only change updates the open segment. On the first sight of an object its conditions'
 * lastTransitionTime opens the segment, so a timeline starts at the truth, not at Autoscope's start; on restart
 * the store hands back the open segments (`restore`), so nothing is recorded twice and nothing already known is
 * lost. The recorder keeps what it needs to decide in memory and hands each decision to `emit`.
 */
export class HistoryRecorder {
  /**
   * Per autoscaler, kept for as long as it lives, so kept small (at 100,000 autoscalers a Map per id and a fresh
   * copy of every time string were ~0.9 KiB of heap per autoscaler): one `Tracked` each, times shared through `times`,
   * in a table of the recorder's own or, once an index adopts them, on the index's entries (`keepStateIn`).
   */
  private known: TrackedTable = new Map<string, Tracked>();
  private readonly clusterStates = new Map<string, ClusterState>();
  /** Equal times kept once: a sync sees thousands of objects within one millisecond, and conditions share times. */
  private readonly times = new StringPool(16_384);

  constructor(private readonly emit: (write: HistoryWrite) => void) {}

  /**
   * First sights decided and not yet written, while a cold start defers them (`deferFirstSights`): id → the
   * resourceVersion the object was first seen at. A first sight is three kinds of row (the object, a transition per
   * condition, a replica sample) that `Tracked` holds everything of until the object changes again, so deferring one
   * keeps nothing but this entry: the rows are made from the tracked state when written (`writeFirstSight`).
   */
  private deferred: Map<string, string | null> | null = null;
  /** Whether a first sight is deferred now (else written as it is decided). */
  private deferring = false;

  /**
   * From now until `stopDeferring`, an autoscaler seen for the first time has its rows written later: by
   * `writeDeferred` (the store drains them once the index is whole), or before anything else is written about it (its
   * next change, its deletion), or when a read asks for its history. The cold start's ~5 rows an autoscaler were ~a
   * quarter of the BFF's CPU until its index was whole (docs/performance.md, 2026-11-30, second session).
   */
  deferFirstSights(): void {
    this.deferring = true;
    this.deferred ??= new Map();
  }

  /** First sights are written as they are decided again; those deferred until now wait for `writeDeferred`. */
  stopDeferring(): void {
    this.deferring = false;
  }

  /** How many first sights are deferred and not yet written. */
  get deferredCount(): number {
    return this.deferred?.size ?? 0;
  }

  /** Writes deferred first sights, in the order they were seen, until `until()` says stop; how many are left. */
  writeDeferred(until: () => boolean = () => false): number {
    const deferred = this.deferred;
    if (!deferred) return 0;
    let n = 0;
    for (const id of deferred.keys()) {
      this.writeFirstSight(id);
      // Asked every 64 first sights (~320 rows), not at each one.
      if ((++n & 63) === 0 && until()) break;
    }
    if (deferred.size === 0 && !this.deferring) this.deferred = null;
    return deferred.size;
  }

  /** Writes the first sight of `id`, if it is deferred: what a read of its history waits for. */
  writeFirstSight(id: string): void {
    const resourceVersion = this.deferred?.get(id);
    if (resourceVersion === undefined) return;
    this.deferred?.delete(id);
    const t = this.known.get(id);
    const ref = parseAutoscalerId(id);
    if (!t || !ref) return;
    const { cluster, kind, namespace, name } = ref;
    this.emit({ op: 'object', cluster, row: { id, cluster, kind, namespace, name, uid: t.uid, firstSeen: t.firstSeen } });
    for (const c of openSegments(t))
      this.emit({
        op: 'transition',
        cluster,
        row: {
          id,
          cluster,
          kind,
          namespace,
          name,
          uid: c.uid,
          type: c.type,
          status: c.status,
          reason: c.reason,
          message: c.message,
          at: c.at,
          reasonSince: c.reasonSince,
          prevStatus: null,
          prevReason: null,
          notable: true,
          resourceVersion,
        },
      });
    if (t.sample) this.emit({ op: 'sample', cluster, id, at: t.firstSeen, sample: { ...t.sample } });
  }

  /**
   * Equal segment heads kept once, by their fields joined (~0.45 µs a head where `StringPool.shared`, which hashes the
   * JSON, took ~1.4: 300,000 segments open in a 100,000-HPA sync). Bounded: past 16,384 heads it starts afresh.
   */
  private heads = new Map<string, SegmentHead>();

  /** The shared head of a segment in this state; one of its own when it belongs to another uid than its object's. */
  private head(t: Tracked, c: Pick<OpenCondition, 'type' | 'status' | 'reason' | 'message' | 'uid'>): SegmentHead {
    const { type, status, reason, message } = c;
    if (c.uid !== t.uid) return { type, status, reason, message, uid: c.uid };
    const key = `${type}\u001f${status}\u001f${reason ?? '\u001e'}\u001f${message ?? '\u001e'}`;
    const had = this.heads.get(key);
    // Fields that hold the separators can join to another head's key: that head is not this one.
    if (had)
      return had.type === type && had.status === status && had.reason === reason && had.message === message
        ? had
        : { type, status, reason, message };
    if (this.heads.size >= 16_384) this.heads = new Map();
    const head = { type, status, reason, message };
    this.heads.set(key, head);
    return head;
  }

  /**
   * Equal replica samples kept once, by their counts joined: replica counts are small numbers, so a fleet's autoscalers
   * share a few thousand tuples at most. Bounded like the heads: past 16,384 it starts afresh.
   */
  private samples = new Map<string, Readonly<ReplicaSample>>();

  /** The shared sample with these counts. */
  private sample(s: ReplicaSample): Readonly<ReplicaSample> {
    const key = `${s.current},${s.desired},${s.min},${s.max}`;
    const had = this.samples.get(key);
    if (had) return had;
    if (this.samples.size >= 16_384) this.samples = new Map();
    const sample = Object.freeze({ current: s.current, desired: s.desired, min: s.min, max: s.max });
    this.samples.set(key, sample);
    return sample;
  }

  /** Sets the open segment of its type (replacing the one it ends). */
  private setOpen(t: Tracked, c: OpenCondition): void {
    putAt(t, openIndex(t, c.type, true), this.head(t, c), c.at, c.reasonSince);
  }

  /** Keeps the per-autoscaler state in `table` from now on; what the recorder holds moves there first. */
  keepStateIn(table: TrackedTable): void {
    for (const id of [...this.known.keys()]) {
      const t = this.known.get(id);
      if (t) table.set(id, t);
    }
    this.known = table;
  }

  /** Reads back what was open when Autoscope stopped. */
  restore(snapshot: RecorderSnapshot): void {
    for (const o of snapshot.objects) this.known.set(o.id, new Tracked(o.uid, this.times.intern(o.firstSeen)));
    for (const r of snapshot.open) {
      const t = this.known.get(r.id);
      if (!t) continue;
      const { type, status, reason, message, uid } = r;
      this.setOpen(t, {
        type,
        status,
        reason,
        message,
        at: this.times.intern(r.at),
        reasonSince: this.times.intern(r.reasonSince),
        uid,
      });
    }
    // Only a live object's: an object deleted before the stop that comes back is new, and its first sample is written.
    for (const s of snapshot.samples) {
      const t = this.known.get(s.id);
      if (t) t.sample = this.sample(s);
    }
  }

  /** Drops what it knew of one cluster and its Karmada members (`<cluster>/<member>`): another process records them now. */
  forgetCluster(cluster: string): void {
    const mine = (id: string): boolean => {
      const c = parseAutoscalerId(id)?.cluster;
      return c === cluster || (c !== undefined && c.startsWith(`${cluster}/`));
    };
    // Its deferred first sights go too: the process that records it now sees them for the first time itself (a
    // handoff writes them first: `flush`, then this).
    if (this.deferred) for (const id of [...this.deferred.keys()]) if (mine(id)) this.deferred.delete(id);
    for (const id of [...this.known.keys()]) if (mine(id)) this.known.delete(id);
    for (const c of [...this.clusterStates.keys()]) if (c === cluster || c.startsWith(`${cluster}/`)) this.clusterStates.delete(c);
  }

  /** Records what changed in one autoscaler since it was last observed. */
  observe(a: Autoscaler, at: string, resourceVersion?: string): void {
    // A deferred first sight is written before what follows it.
    if (this.deferred) this.writeFirstSight(a.id);
    const now = this.times.intern(at);
    let t = this.known.get(a.id);
    const recreated = t !== undefined && t.uid !== a.uid;
    // A recreated object's first segments cannot start before the old object's segments were closed.
    const floor = recreated ? now : '';
    // Deferred: a first sight whose rows its tracked state can make again (one segment per condition type).
    const defer = this.deferring && !t && distinctTypes(a.conditions) && idNames(a);
    if (!t || recreated) {
      if (t) {
        this.closeAll(a.id, t, now);
        t.uid = a.uid;
        t.firstSeen = now;
      } else {
        t = new Tracked(a.uid, now);
        this.known.set(a.id, t);
      }
      if (!defer)
        this.emit({
          op: 'object',
          cluster: a.cluster,
          row: { id: a.id, cluster: a.cluster, kind: a.kind, namespace: a.namespace, name: a.name, uid: a.uid, firstSeen: now },
        });
    }
    for (const c of a.conditions) {
      const k = openIndex(t, c.type);
      const prevHead = k >= 0 ? headAt(t, k) : null;
      const prev = prevHead ? openAt(t, k, prevHead) : undefined;
      const reason = c.reason;
      if (prev && prev.status === c.status && prev.reason === reason && prev.uid === a.uid) {
        if (prev.message !== c.message) {
          putAt(t, k, this.head(t, { ...prev, message: c.message }), prev.at, prev.reasonSince);
          this.emit({ op: 'message', cluster: a.cluster, id: a.id, type: c.type, message: c.message });
        }
        continue;
      }
      // The first sight starts at the condition's own lastTransitionTime; later changes start when a status
      // flip says so, else now (a reason change does not move lastTransitionTime).
      const parsed = iso(c.lastTransitionTime);
      const ltt = parsed === null ? null : this.times.intern(parsed);
      const at = !prev
        ? ltt && ltt <= now && ltt >= floor
          ? ltt
          : now
        : prev.status !== c.status && ltt && ltt > prev.at && ltt <= now
          ? ltt
          : now;
      const reasonSince = prev ? at : now;
      // Notable: the first sight, a status flip, or a reason change that changes what it means (ok → degraded).
      const notable =
        !prev ||
        prev.status !== c.status ||
        conditionMeaning(a.kind, { type: c.type, status: prev.status, reason: prev.reason ?? undefined }) !==
          conditionMeaning(a.kind, { type: c.type, status: c.status, reason: reason ?? undefined });
      this.setOpen(t, { type: c.type, status: c.status, reason, message: c.message, at, reasonSince, uid: a.uid });
      if (defer) continue;
      this.emit({
        op: 'transition',
        cluster: a.cluster,
        row: {
          id: a.id,
          cluster: a.cluster,
          kind: a.kind,
          namespace: a.namespace,
          name: a.name,
          uid: a.uid,
          type: c.type,
          status: c.status,
          reason,
          message: c.message,
          at,
          reasonSince,
          prevStatus: prev?.status ?? null,
          prevReason: prev?.reason ?? null,
          notable,
          resourceVersion: resourceVersion ?? null,
        },
      });
    }
    const counts: ReplicaSample = { current: a.currentReplicas, desired: a.desiredReplicas, min: a.minReplicas, max: a.maxReplicas };
    if (!t.sample || !sameSample(t.sample, counts)) {
      t.sample = this.sample(counts);
      if (!defer) this.emit({ op: 'sample', cluster: a.cluster, id: a.id, at: now, sample: counts });
    }
    if (defer) this.deferred?.set(a.id, resourceVersion ?? null);
    if (a.currentReplicas !== null && a.desiredReplicas !== null && a.currentReplicas !== a.desiredReplicas) t.mismatchSince ??= now;
    else t.mismatchSince = null;
    const had = t.problems ?? [];
    const problems: string[] = [];
    for (let i = 0; i < had.length; i += 2)
      if (a.problems.some((p) => p.code === had[i])) problems.push(had[i] as string, had[i + 1] as string);
    for (const p of a.problems) if (!codeIn(problems, p.code)) problems.push(p.code, now);
    t.problems = problems.length > 0 ? problems : null;
  }

  /** The object is gone: its open segments end now. */
  observeDeleted(id: string, now: string): void {
    if (this.deferred) this.writeFirstSight(id);
    const t = this.known.get(id);
    if (!t) return;
    const ref = parseAutoscalerId(id);
    this.closeAll(id, t, now);
    this.known.delete(id);
    if (ref) this.emit({ op: 'deleted', cluster: ref.cluster, id, at: now });
  }

  private closeAll(id: string, t: Tracked, now: string): void {
    const ref = parseAutoscalerId(id);
    if (!ref) return;
    for (const { type, ...c } of openSegments(t)) {
      this.emit({
        op: 'transition',
        cluster: ref.cluster,
        row: {
          id,
          cluster: ref.cluster,
          kind: ref.kind,
          namespace: ref.namespace,
          name: ref.name,
          uid: c.uid,
          type,
          status: 'Unknown',
          reason: 'Deleted',
          message: 'the object was deleted or recreated',
          at: now,
          reasonSince: now,
          prevStatus: c.status,
          prevReason: c.reason,
          notable: true,
          resourceVersion: null,
        },
      });
    }
    closeSegments(t);
  }

  recordEvent(id: string, e: EventDto): void {
    const ref = parseAutoscalerId(id);
    if (!ref) return;
    this.emit({ op: 'event', cluster: ref.cluster, id, event: { ...e, firstSeen: iso(e.firstSeen), lastSeen: iso(e.lastSeen) } });
  }

  recordClusterState(cluster: string, state: ClusterState, at: string, error: string | null): void {
    if (this.clusterStates.get(cluster) === state) return;
    this.clusterStates.set(cluster, state);
    this.emit({ op: 'clusterState', cluster, state, at, error });
  }

  /** When each condition's current state began (the rule is `lib/history`'s `conditionSince`). */
  conditionSince(id: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const c of openSegments(this.known.get(id)))
      out[c.type] = conditionSince({ type: c.type, status: c.status, start: c.at, reasonSince: c.reasonSince });
    return out;
  }

  replicasMismatchSince(id: string): string | null {
    return this.known.get(id)?.mismatchSince ?? null;
  }

  problemSince(id: string): Record<string, string> {
    const out: Record<string, string> = {};
    const pairs = this.known.get(id)?.problems ?? [];
    for (let i = 0; i < pairs.length; i += 2) out[pairs[i] as string] = pairs[i + 1] as string;
    return out;
  }

  firstSeen(id: string): string | null {
    return this.known.get(id)?.firstSeen ?? null;
  }
}

/**
 * The writes decided in one turn of the event loop, waiting to go to the store in one transaction. A message
 * change of a transition still waiting here is folded into it, so no write ever depends on an update reaching a
 * row of the same batch.
 */
export class WriteBatch {
  private writes: HistoryWrite[] = [];
  private readonly pendingTransitions = new Map<string, TransitionRow>();

  push(write: HistoryWrite): void {
    if (write.op === 'message') {
      const row = this.pendingTransitions.get(`${write.id}\u0000${write.type}`);
      if (row) {
        row.message = write.message;
        return;
      }
    }
    if (write.op === 'transition') this.pendingTransitions.set(`${write.row.id}\u0000${write.row.type}`, write.row);
    this.writes.push(write);
  }

  get size(): number {
    return this.writes.length;
  }

  /** Hands over what is queued and starts an empty batch. */
  take(): HistoryWrite[] {
    const writes = this.writes;
    this.writes = [];
    this.pendingTransitions.clear();
    return writes;
  }
}
