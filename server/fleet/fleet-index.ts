import 'server-only';
import type { Autoscaler, AutoscalerKind, Health } from '@/lib/api';
import { autoscalerIdOf, parseAutoscalerId } from '@/lib/api';
import type { HorizontalPodAutoscaler, KubeObject } from '@/lib/k8s/types';
import type {
  ClusterAPIMachineSetObject,
  MachineAPIMachineSetObject,
  MachineAutoscalerObject,
  MachineSetObject,
  MachineSetPair,
} from '@/lib/machine';
import {
  assessMachineAutoscalers,
  DEFAULT_CLUSTER_API_NAMESPACE,
  DEFAULT_MACHINE_API_NAMESPACE,
  DEFAULT_OPERATOR_NAMESPACE,
  indexMachineSetsByName,
  operatorSupportsClusterAPITargetsFromCrd,
} from '@/lib/machine';
import type {
  FederatedHPAObject,
  KarmadaClusterObject,
  HpaShapeMemo,
  MapperContext,
  PropagationPolicyObject,
  ResourceBindingObject,
} from '@/lib/triage';
import { indexFederationObjects, toEventFiling, toFederatedAutoscaler, toHpaAutoscaler, toMachineAutoscaler } from '@/lib/triage';
import { nextClockChange } from '@/lib/triage/assess-hpa';
import { withStale } from '@/lib/triage/autoscaler-base';
import type { TrackedAutoscaler, TrackedTable } from '../history/recorder';
import type { AutoscopeStore } from '../history/store';
import { errorText, log } from '../log';
import type { ObjectChange } from '../watch/cluster-watcher';
import type { ResourceKey } from '../watch/resources';
import type { DtoChange } from './change-journal';
import { ChangeJournal } from './change-journal';
import { ClusterIds } from './cluster-ids';
import type { HeldObject } from './held-object';
import { HeldAsIs, HeldDictionary, HeldJson } from './held-object';
import { jsonEqual } from './json-equal';
import { StringPool } from './string-pool';

/** What the index needs from the watchers: the informer caches of one cluster. */
export interface ClusterObjects {
  objects(resource: ResourceKey): KubeObject[];
  serves(resource: ResourceKey): boolean;
  /**
   * Whether the resource's cache has held a complete list (until the first list completes it is partial; a
   * failed relist later keeps the previous list, which is still whole).
   */
  listed(resource: ResourceKey): boolean;
}

/**
 * Whether every input of a cross-object verdict that the cluster serves has listed. A verdict computed from a
 * partial view is wrong, and history would keep it: after a restart, MachineAutoscalers mapped before their
 * MachineSets had listed were each recorded Ready=False/MachineAutoscalerTargetNotFound for a second.
 */
function inputsListed(source: ClusterObjects, resources: ReadonlySet<ResourceKey>): boolean {
  for (const r of resources) if (source.serves(r) && !source.listed(r)) return false;
  return true;
}

export interface IndexEntry {
  dto: Autoscaler;
  /** The object as the API served it (for YAML, behavior and explain): `held.object()`. */
  held: HeldObject;
  /** The objects the mapper read beside the object, as of the last mapping (the detail page shows them). */
  related: RelatedObjects;
  /**
   * For an HPA a clock rule can still move: the instant its DTO can next change with nothing else (`nextClockChange`),
   * as `clockDueOf` keeps it; 0 when none can. On the entry, not in a Map of its own beside the entries (~36 B an
   * autoscaler at 100,000: bench:heap).
   */
  clockDue: number;
  /** What history knows of the autoscaler, kept here for it (`TrackedTable`); undefined while history holds none. */
  tracked: TrackedAutoscaler | undefined;
}

/**
 * What `IndexEntry.clockDue` counts from: an instant is kept as whole seconds after it, a small integer that stays in
 * the entry's own field. An epoch-ms instant is a double, which V8 boxes in a number object of its own (16 bytes) on
 * every entry once one holds it: 1.6 MiB at 100,000 (bench:heap).
 */
const CLOCK_ORIGIN_MS = Date.now();

/**
 * An instant (epoch ms; null: none) as `clockDue` keeps it. Rounded down, so an HPA is re-mapped up to a second early at
 * worst: its DTO then comes out the same, and the instant is noted again. Never 0, which means none.
 */
function clockDueOf(ms: number | null): number {
  if (ms === null) return 0;
  const seconds = Math.floor((ms - CLOCK_ORIGIN_MS) / 1000);
  return seconds === 0 ? -1 : seconds;
}

/** Whether a noted instant has come by `nowMs`. */
function clockDueBy(clockDue: number, nowMs: number): boolean {
  return clockDue !== 0 && CLOCK_ORIGIN_MS + clockDue * 1000 <= nowMs;
}

/** `FleetIndex.counts`' key. */
function countKey(cluster: string, kind: AutoscalerKind, health: Health): string {
  return `${cluster}\u0000${kind}\u0000${health}`;
}

/** An entry as another replica published it: what it mapped, from what. */
export interface RemoteEntry {
  dto: Autoscaler;
  raw: KubeObject;
  related: RelatedObjects;
}

/** How the index keeps an object it mapped: an HPA as JSON bytes (a hundred thousand of them), any other as it is. */
function hold(raw: KubeObject, kind: AutoscalerKind, dictionary: HeldDictionary): HeldObject {
  return kind === 'HorizontalPodAutoscaler' ? new HeldJson(raw, dictionary) : new HeldAsIs(raw);
}

/** A FederatedHPA's binding and policy; a MachineAutoscaler's target MachineSet copies. */
export interface RelatedObjects {
  binding?: ResourceBindingObject | null;
  policy?: PropagationPolicyObject | null;
  machineSets?: MachineSetPair;
}

const machineResources = new Set<ResourceKey>([
  'machineAutoscalers',
  'clusterAutoscalers',
  'mapiMachineSets',
  'capiMachineSets',
  'machineAutoscalerCrd',
  'machineAutoscalerEvents',
  'machineSetEvents',
]);
/** FederatedHPA versions kept per cluster while its inputs list (`heldFederated`): a few status writes each of 10,000. */
const maxHeldPerCluster = 50_000;
const federationResources = new Set<ResourceKey>(['federatedHpas', 'resourceBindings', 'karmadaClusters', 'propagationPolicies']);
const eventResources = new Set<ResourceKey>(['hpaEvents', 'machineAutoscalerEvents', 'machineSetEvents', 'federatedHpaEvents']);

/** The longest the time-based re-map holds the event loop in one piece (ms). */
const SLICE_MS = 5;

/** An HPA reads no other object: one frozen empty set for all of them, not an object per entry. */
const NOTHING_RELATED: RelatedObjects = Object.freeze({});

/** Whether two records of strings hold the same keys and values (in any order). */
function sameRecord(x: Readonly<Record<string, string>> | undefined, y: Readonly<Record<string, string>> | undefined): boolean {
  if (x === y) return true;
  if (!x || !y) return false;
  let n = 0;
  for (const k in x) {
    if (x[k] !== y[k]) return false;
    n++;
  }
  for (const _ in y) n--;
  return n === 0;
}

/** Whether what history knows of an autoscaler is the same in both contexts (the mapper reads nothing else of them). */
function sameContext(x: MapperContext, y: MapperContext): boolean {
  return (
    x.stale === y.stale &&
    x.replicasMismatchSince === y.replicasMismatchSince &&
    sameRecord(x.conditionSince, y.conditionSince) &&
    sameRecord(x.problemSince, y.problemSince)
  );
}

/** Whether an object is the version the index holds (a resourceVersion names one state of one object). */
function sameVersion(held: HeldObject | undefined, object: KubeObject): boolean {
  const version = object.metadata.resourceVersion;
  return held !== undefined && version !== undefined && version !== '' && held.resourceVersion === version;
}

/** Whether a re-mapped DTO differs from the stored one in anything but `stale` (a re-map that changes nothing does not). */
function sameDto(stored: Autoscaler, mapped: Autoscaler): boolean {
  return jsonEqual(stored, mapped, 'stale');
}

/**
 * `dto` holding `id`'s very string when its id is equal to it. The mapper makes a new id string each time, and the
 * index's keys, history's key and every DTO version would each hold their own copy (~70 B apiece).
 */
function withIdString(dto: Autoscaler, id: string): Autoscaler {
  if (dto.id === id) dto.id = id;
  return dto;
}

/**
 * The in-memory index of every autoscaler in the fleet, keyed `cluster/kind/namespace/name`. Every object
 * goes through the `lib/` mappers into an `Autoscaler` DTO. Only what changed is recomputed: an HPA on
 * its own change; a cluster's MachineAutoscaler verdicts when any MachineAutoscaler, MachineSet,
 * ClusterAutoscaler (or their events) of that cluster changes; its FederatedHPAs when a binding, Karmada
 * Cluster or policy changes. Changes are recorded in history and announced to listeners.
 */
export class FleetIndex {
  readonly entries = new Map<string, IndexEntry>();
  /** The ids by cluster, each cluster's in an array (`ClusterIds`: every id in order without an array of its own). */
  private readonly byCluster = new ClusterIds();
  private readonly pendingClusterWork = new Map<string, Set<'machine' | 'federation'>>();
  private readonly stale = new Set<string>();
  private pendingTimer: NodeJS.Timeout | null = null;
  /** The time-based re-map pass under way (`refreshAll`), and whether the process is stopping. */
  private refreshing: Promise<void> | null = null;
  private halted = false;
  /** Per cluster: its ResourceBindings and PropagationPolicies indexed, and its member clusters, until one changes. */
  private readonly federationLookups = new Map<
    string,
    { index: ReturnType<typeof indexFederationObjects>; clusters: KarmadaClusterObject[] }
  >();
  /**
   * Per cluster, the FederatedHPA versions that arrived while its other inputs had not listed, each with its arrival
   * time, in arrival order: mapped in that order once they have (`releaseHeld`), so every state the API served reaches
   * history, not only the one current when the inputs were complete. After a restart, a Karmada control plane whose
   * bindings took seconds to list (a retried 5xx) lost every FederatedHPA transition of those seconds.
   */
  private readonly heldFederated = new Map<string, { fhpa: FederatedHPAObject; at: number }[]>();
  private readonly heldDropWarned = new Set<string>();
  /** Revisions (the fleet's and each cluster's) and the last changes, for views kept incrementally. */
  private readonly journal = new ChangeJournal();
  /** Equal strings of the raw objects and stored DTOs kept once (reasons, messages, times repeat across a fleet). */
  private readonly strings = new StringPool();
  /**
   * Told of every change this process made to an entry from its own watchers (null: removed); replicas sharing a
   * PostgreSQL publish it for the others (docs/scale-out.md). Entries applied with `applyRemote` are not told.
   */
  publisher: ((cluster: string, id: string, entry: RemoteEntry | null) => void) | null = null;
  /**
   * The informers share each object's strings as it arrives (`shareStrings`, while the copies it replaces are still
   * young garbage), so `apply` does not walk them again. Off, the index shares them itself when it stores them.
   */
  sharedOnArrival = false;
  /**
   * History's state of ids the index has no entry for: one it is recording for the first time, until `put` makes the
   * entry (history observes before the entry exists), and what a restart read back for objects not listed yet (or
   * deleted while Autoscope was down).
   */
  private readonly untracked = new Map<string, TrackedAutoscaler>();
  /**
   * Autoscalers by cluster, kind and health (`countOf`), kept per change: the metrics read them at every scrape, where
   * a walk of the entries held the event loop ~40 ms at 100,000 (a CPU profile of the bench: 2.6 s in one run).
   */
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly history: AutoscopeStore,
    private readonly sources: (cluster: string) => ClusterObjects | undefined,
    private readonly onChanged: (ids: string[]) => void,
    private readonly clock: () => Date = () => new Date(),
    /** HPAs deflated by a thread of their own (`HeldCompressor`; the server's index), else as they are written. */
    compressInThread = false,
  ) {
    this.heldDictionary = new HeldDictionary({
      thread: compressInThread,
      onDeflated: (held, plainSize) => {
        this.heldBytes.json -= plainSize;
        this.heldBytes.deflated += held.size;
      },
      onThreadError: (error) => log.warn('held HPA compressor failed; deflating on the event loop', { error: errorText(error) }),
    });
    history.keepStateIn(this.trackedTable());
  }

  /** History's per-autoscaler state, kept on the entries (`AutoscopeStore.keepStateIn`); `untracked` for ids without one. */
  private trackedTable(): TrackedTable {
    const { entries, untracked } = this;
    return {
      get: (id) => entries.get(id)?.tracked ?? untracked.get(id),
      set: (id, state) => {
        const entry = entries.get(id);
        if (entry) entry.tracked = state;
        else untracked.set(id, state);
      },
      delete: (id) => {
        const entry = entries.get(id);
        if (entry) entry.tracked = undefined;
        untracked.delete(id);
      },
      keys: function* () {
        for (const [id, entry] of entries) if (entry.tracked) yield id;
        yield* untracked.keys();
      },
    };
  }

  /** The state history holds for an id that is getting its first entry, taken from `untracked`. */
  private takeUntracked(id: string): TrackedAutoscaler | undefined {
    const state = this.untracked.get(id);
    if (state) this.untracked.delete(id);
    return state;
  }

  /**
   * Replaces, in place, the repeated strings of an object an informer just received by the index's shared copies.
   * Done as the object arrives (a list page, a watch event), the strings it replaces die in the young generation;
   * done later, when the ingest queue applied the object, they had often been copied by scavenges and promoted with
   * it (a 100,000-HPA sync, A/B: 6.1 s of scavenges instead of 6.9–8.2 s, and 554–596 MiB of old space committed
   * after it instead of 623–678 MiB).
   */
  shareStrings(object: KubeObject): void {
    this.strings.internDeep(object);
  }

  /** Bytes of the HPAs' objects held outside V8's heap (`HeldJson`): as JSON (the dictionary's samples), and deflated. */
  readonly heldBytes = { json: 0, deflated: 0 };
  /** What this index's HPAs are deflated against (`HeldJson`): made from the first few written. */
  private readonly heldDictionary: HeldDictionary;

  /** An HPA waiting for the compressor counts as JSON until its deflated bytes come (`onDeflated`), if it is still held then. */
  private heldChanged(before: HeldObject | undefined, after: HeldObject | undefined): void {
    if (before instanceof HeldJson) {
      before.retire();
      this.heldBytes[before.deflated ? 'deflated' : 'json'] -= before.size;
    }
    if (after instanceof HeldJson) this.heldBytes[after.deflated ? 'deflated' : 'json'] += after.size;
  }

  /** Bytes of the slabs the deflated HPAs are packed into (`HeldArena`), live or not. */
  get heldSlabBytes(): number {
    return this.heldDictionary.arena.counts.bytes;
  }

  /**
   * A cold start: the HPAs' deflating is left for after `whole` (their plain JSON held meanwhile, up to
   * `MAX_DEFERRED`): on a machine whose cores the sync keeps busy, the thread's ~30 µs an HPA came out of the sync.
   */
  deferDeflating(): void {
    this.heldDictionary.deferDeflating();
  }

  /** The index is whole (or has waited long enough): what `deferDeflating` left is deflated now. */
  whole(): void {
    this.heldDictionary.endDeferral();
  }

  /** HPA versions handed to the compressor thread and not yet deflated. */
  get heldWaiting(): number {
    return this.heldDictionary.compressor?.pending ?? 0;
  }

  /** Bumped on every change to an entry: a view computed at one version holds until the next. */
  get version(): number {
    return this.journal.version;
  }

  /** Every DTO in id order: the order a stable sort keeps among equals, so pages are stable. */
  dtosInIdOrder(): Autoscaler[] {
    const out: Autoscaler[] = [];
    for (const id of this.byCluster.inIdOrder()) {
      const entry = this.entries.get(id);
      if (entry) out.push(entry.dto);
    }
    return out;
  }

  /** How many autoscalers the index holds. */
  get size(): number {
    return this.entries.size;
  }

  /** The changes after `revision`, oldest first; null when the journal no longer reaches back that far. */
  changesSince(revision: number): readonly DtoChange[] | null {
    return this.journal.changesSince(revision);
  }

  /** Forgets the journal's changes up to `revision` (`ChangeJournal.release`): every kept view has them. */
  releaseChanges(revision: number): void {
    this.journal.release(revision);
  }

  /** Clusters that have autoscalers in the index, sorted. */
  clusterNames(): string[] {
    return this.byCluster.names();
  }

  /** Bumped on every change to one of the cluster's entries. */
  clusterVersion(cluster: string): number {
    return this.journal.clusterVersion(cluster);
  }

  /** The cluster's DTOs in id order. */
  dtosOfCluster(cluster: string): Autoscaler[] {
    const out: Autoscaler[] = [];
    for (const id of this.byCluster.sortedOf(cluster)) {
      const entry = this.entries.get(id);
      if (entry) out.push(entry.dto);
    }
    return out;
  }

  /** Records one change: the revision, the cluster's revision, the journal and the counts move together. */
  private changed(cluster: string, old: Autoscaler | null, now: Autoscaler | null): void {
    if (old?.kind !== now?.kind || old?.health !== now?.health) {
      if (old) this.count(old, -1);
      if (now) this.count(now, 1);
    }
    this.journal.record(cluster, old, now, this.entries.size);
  }

  private count(dto: Autoscaler, by: number): void {
    const key = countKey(dto.cluster, dto.kind, dto.health);
    const n = (this.counts.get(key) ?? 0) + by;
    if (n === 0) this.counts.delete(key);
    else this.counts.set(key, n);
  }

  /** How many autoscalers of a kind and health a cluster has in the index (the metrics' `autoscope_autoscalers`). */
  countOf(cluster: string, kind: AutoscalerKind, health: Health): number {
    return this.counts.get(countKey(cluster, kind, health)) ?? 0;
  }

  private nowIso(): string {
    return this.clock().toISOString();
  }

  private context(id: string, cluster: string): MapperContext {
    return {
      stale: this.stale.has(cluster),
      conditionSince: this.history.conditionSince(id),
      replicasMismatchSince: this.history.replicasMismatchSince(id),
      problemSince: this.history.problemSince(id),
    };
  }

  /**
   * One watched object changed, or (`listed`) arrived in a page of a list still under way. HPAs are indexed from their
   * page: otherwise a cold start fetched every page of every cluster (the BFF's thread mostly idle, waiting on the API
   * servers) and only then mapped 100,000 objects one after another. The informer does not hand a listed object over
   * again once its whole list is in (ListWatch's own `add`/`update` of it: `ResourceInformer.byPage`); an `add` or
   * `update` of an object the index holds at that version is not mapped again either way. Other kinds
   * are not read page by page (`WatchedResource.pageByPage`; their verdicts are made per cluster from complete inputs):
   * a listed object of another kind changes nothing.
   */
  apply(cluster: string, resource: ResourceKey, change: ObjectChange, object: KubeObject): void {
    if (change === 'listed') {
      if (resource !== 'hpas') return;
      // A relist of an object the index holds at this version: nothing to map.
      const id = autoscalerIdOf(cluster, 'HorizontalPodAutoscaler', object.metadata);
      if (!sameVersion(this.entries.get(id)?.held, object)) this.upsertHpa(cluster, object as HorizontalPodAutoscaler);
      return;
    }
    // An Event's removal (its TTL, an hour by default) is not news: it was filed when it came.
    if (eventResources.has(resource) && change !== 'delete') this.recordEvent(cluster, object);
    if (resource === 'hpas') {
      const id = autoscalerIdOf(cluster, 'HorizontalPodAutoscaler', object.metadata);
      if (change === 'delete') this.remove(id);
      // An object the index holds at this version (one its list page brought, were it announced again): nothing to map.
      else if (!sameVersion(this.entries.get(id)?.held, object)) this.upsertHpa(cluster, object as HorizontalPodAutoscaler);
      return;
    }
    if (resource === 'federatedHpas' && change !== 'delete') {
      if (this.upsertFederated(cluster, object as unknown as FederatedHPAObject)) return;
      this.holdFederated(cluster, object as unknown as FederatedHPAObject);
    }
    if (resource !== 'federatedHpas' && federationResources.has(resource)) this.federationLookups.delete(cluster);
    if (machineResources.has(resource)) this.schedule(cluster, 'machine');
    if (federationResources.has(resource)) this.schedule(cluster, 'federation');
  }

  /**
   * A resource finished a full list: anything of that kind the list no longer has is gone. The list's objects
   * themselves have already come through `apply` (the informer announces each new or changed one before it
   * reports the list), so HPAs are not mapped again here: doing so mapped every HPA twice at start (9% of a
   * 100,000-HPA sync).
   */
  resync(cluster: string, resource: ResourceKey, objects: KubeObject[]): void {
    if (resource === 'hpas') {
      const present = new Set(objects.map((o) => autoscalerIdOf(cluster, 'HorizontalPodAutoscaler', o.metadata)));
      this.removeUnlisted(cluster, 'HorizontalPodAutoscaler', present);
      return;
    }
    // A list's Events were filed as they came through `apply` (ListWatch reports each new or changed listed object
    // first; an uncached informer each listed one as its page arrives); HPA and FederatedHPA Events' informers hand over
    // nothing here.
    if (federationResources.has(resource)) this.federationLookups.delete(cluster);
    if (machineResources.has(resource)) this.schedule(cluster, 'machine');
    if (federationResources.has(resource)) this.schedule(cluster, 'federation');
  }

  /** The cluster became unreachable (its items are served from the last sync, marked stale) or came back. */
  setStale(cluster: string, stale: boolean): void {
    if (stale === this.stale.has(cluster)) return;
    if (stale) this.stale.add(cluster);
    else this.stale.delete(cluster);
    const changed: string[] = [];
    for (const id of this.byCluster.of(cluster)) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      const old = entry.dto;
      entry.dto = withStale(old, stale);
      this.changed(cluster, old, entry.dto);
      this.publisher?.(cluster, id, { dto: entry.dto, raw: entry.held.object(), related: entry.related });
      changed.push(id);
    }
    if (changed.length) this.onChanged(changed);
  }

  /** A cluster is no longer configured (a Karmada member removed): its autoscalers leave the index. */
  dropCluster(cluster: string): void {
    for (const id of this.byCluster.take(cluster)) this.remove(id);
    this.stale.delete(cluster);
    this.federationLookups.delete(cluster);
    this.stopHolding(cluster);
  }

  /**
   * The cluster is no longer watched here (another replica took its lease): the FederatedHPA versions held for it
   * go with its watch. Kept, they would be mapped after whatever a later watch of it brings, as if they were newer.
   */
  stopHolding(cluster: string): void {
    this.heldFederated.delete(cluster);
    this.heldDropWarned.delete(cluster);
  }

  /**
   * Re-maps each HPA whose DTO the clock alone has moved since it was mapped (a mismatch held 15 minutes, a
   * stabilization held an hour, a not-evaluated HPA failing a minute after creation: `nextClockChange`, noted per
   * HPA as it is mapped), then each cluster's MachineAutoscaler and FederatedHPA verdicts. The others would map to the DTO they
   * have: re-mapping every HPA a clock rule touched was ~2.5 s of CPU a minute at 100,000 simulated HPAs
   * (docs/performance.md), now it is the few whose instant came.
   * In slices of at most `slice` HPAs and SLICE_MS, each in its own event-loop turn, so requests wait at most about
   * that long. Each HPA is re-mapped from the object its entry holds at that moment (the latest the watch applied),
   * never from a copy taken at the start of the pass, so a pass cannot bring back an older version. A pass still
   * running when the next is due is not started twice; `halt()` ends it.
   */
  refreshAll(slice = 500): Promise<void> {
    this.refreshing ??= this.refreshInSlices(slice).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Stops a refresh pass between slices (the process is stopping). */
  halt(): void {
    this.halted = true;
    void this.heldDictionary.stop();
  }

  /** A method, not the field: the pass reads it again after each await (where narrowing would assume it unchanged). */
  private isHalted(): boolean {
    return this.halted;
  }

  private async refreshInSlices(slice: number): Promise<void> {
    const nowMs = this.clock().getTime();
    // The entries' `clockDue`, walked in slices. A Map's iterator survives changes between slices: an entry replaced
    // meanwhile keeps its place (and is not seen twice), one added later is seen with an instant after `nowMs`.
    const noted = this.entries.entries();
    for (let done = false; !done;) {
      if (this.isHalted()) return;
      // A slice ends after `slice` re-mapped HPAs or SLICE_MS, whichever comes first.
      const deadline = performance.now() + SLICE_MS;
      let mapped = 0;
      let seen = 0;
      while (mapped < slice) {
        const next = noted.next();
        if (next.done) {
          done = true;
          break;
        }
        const [id, { clockDue }] = next.value;
        if (clockDueBy(clockDue, nowMs)) {
          this.refreshIfDue(id, nowMs);
          mapped += 1;
          if (performance.now() >= deadline) break;
        } else if ((++seen & 255) === 0 && performance.now() >= deadline) break;
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    for (const cluster of this.byCluster.names()) {
      if (this.isHalted()) return;
      if (!this.sources(cluster)) continue;
      this.recomputeMachine(cluster);
      this.recomputeFederation(cluster);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Re-maps an HPA whose noted instant had come when the pass began (`nowMs`), from the object its entry holds now.
   * Since then a watch event may have re-mapped it (and noted a later instant, or none): then there is nothing to do.
   */
  private refreshIfDue(id: string, nowMs: number): void {
    const entry = this.entries.get(id);
    if (!entry || !clockDueBy(entry.clockDue, nowMs)) return;
    entry.clockDue = 0;
    if (entry.dto.kind !== 'HorizontalPodAutoscaler' || !this.sources(entry.dto.cluster)) return;
    this.upsertHpa(entry.dto.cluster, entry.held.object() as HorizontalPodAutoscaler);
  }

  /** Notes when the clock alone can next move an HPA's DTO (mapped now with `context`); never: forgets it. */
  private noteClock(id: string, hpa: HorizontalPodAutoscaler, context: MapperContext, nowMs: number): void {
    const entry = this.entries.get(id);
    if (entry) entry.clockDue = clockDueOf(nextClockChange('HorizontalPodAutoscaler', hpa, context, nowMs));
  }

  private idsOf(cluster: string, kind: AutoscalerKind): string[] {
    return this.byCluster.of(cluster).filter((id) => this.entries.get(id)?.dto.kind === kind);
  }

  private schedule(cluster: string, work: 'machine' | 'federation'): void {
    const set = this.pendingClusterWork.get(cluster) ?? new Set();
    set.add(work);
    this.pendingClusterWork.set(cluster, set);
    // Debounced: a relist of 500 MachineSets recomputes the verdicts once, not 500 times.
    this.pendingTimer ??= setTimeout(() => this.runPending(), 50);
  }

  /** Runs the debounced cross-object recomputations now (tests and shutdown call it). */
  runPending(): void {
    if (this.pendingTimer) clearTimeout(this.pendingTimer);
    this.pendingTimer = null;
    const work = [...this.pendingClusterWork.entries()];
    this.pendingClusterWork.clear();
    for (const [cluster, kinds] of work) {
      try {
        if (kinds.has('machine')) this.recomputeMachine(cluster);
        if (kinds.has('federation')) this.recomputeFederation(cluster);
      } catch (err) {
        log.error('recomputing cross-object verdicts failed', { cluster, verdicts: [...kinds].join(','), error: errorText(err) });
      }
    }
  }

  private upsertHpa(cluster: string, hpa: HorizontalPodAutoscaler): void {
    const id = autoscalerIdOf(cluster, 'HorizontalPodAutoscaler', hpa.metadata);
    const at = this.clock();
    const memo: HpaShapeMemo = {};
    const context = this.put(
      id,
      cluster,
      'HorizontalPodAutoscaler',
      (ctx, now) => toHpaAutoscaler(cluster, hpa, ctx, now, memo),
      hpa,
      NOTHING_RELATED,
      at,
    );
    this.noteClock(id, hpa, context, at.getTime());
  }

  private recomputeMachine(cluster: string): void {
    const source = this.sources(cluster);
    if (!source?.serves('machineAutoscalers') || !inputsListed(source, machineResources)) return;
    const machineAutoscalers = source.objects('machineAutoscalers') as unknown as MachineAutoscalerObject[];
    const mapi = source.objects('mapiMachineSets') as unknown as MachineAPIMachineSetObject[];
    const capi = source.objects('capiMachineSets') as unknown as ClusterAPIMachineSetObject[];
    const crd = source.objects('machineAutoscalerCrd')[0];
    const verdicts = assessMachineAutoscalers({
      machineAutoscalers,
      machineSets: { machineAPI: mapi, clusterAPI: capi },
      clusterAutoscalers: source.objects('clusterAutoscalers'),
      events: [...source.objects('machineAutoscalerEvents'), ...source.objects('machineSetEvents')] as never[],
      context: {
        operatorNamespace: DEFAULT_OPERATOR_NAMESPACE,
        machineAPINamespace: DEFAULT_MACHINE_API_NAMESPACE,
        clusterAPINamespace: DEFAULT_CLUSTER_API_NAMESPACE,
        operatorSupportsClusterAPITargets: crd ? operatorSupportsClusterAPITargetsFromCrd(crd) : false,
      },
    });
    const byKey = new Map(machineAutoscalers.map((ma) => [`${ma.metadata.namespace ?? ''}/${ma.metadata.name}`, ma]));
    const setsByRef = new Map<string, MachineSetObject>([
      ...mapi.map((m) => [`machine.openshift.io/${m.metadata.namespace ?? ''}/${m.metadata.name}`, m] as const),
      ...capi.map((c) => [`cluster.x-k8s.io/${c.metadata.namespace ?? ''}/${c.metadata.name}`, c] as const),
    ]);
    const mapiByName = indexMachineSetsByName(mapi, DEFAULT_MACHINE_API_NAMESPACE);
    const capiByName = indexMachineSetsByName(capi, DEFAULT_CLUSTER_API_NAMESPACE);
    const seen = new Set<string>();
    for (const verdict of verdicts) {
      const ma = byKey.get(verdict.machineAutoscaler);
      if (!ma) continue;
      const copy = verdict.target.authoritativeCopy;
      const target = copy ? (setsByRef.get(`${copy.apiVersion.split('/')[0]}/${copy.namespace}/${copy.name}`) ?? null) : null;
      const id = autoscalerIdOf(cluster, 'MachineAutoscaler', ma.metadata);
      seen.add(id);
      const machineSets = {
        machineAPI: mapiByName.get(verdict.target.name) ?? null,
        clusterAPI: capiByName.get(verdict.target.name) ?? null,
      };
      this.put(id, cluster, 'MachineAutoscaler', (ctx, now) => toMachineAutoscaler(cluster, ma, verdict, target, ctx, now), ma, {
        machineSets,
      });
    }
    this.removeUnlisted(cluster, 'MachineAutoscaler', seen);
  }

  private recomputeFederation(cluster: string): void {
    const source = this.sources(cluster);
    if (!source?.serves('federatedHpas') || !inputsListed(source, federationResources)) return;
    const seen = new Set<string>();
    for (const fhpa of source.objects('federatedHpas') as unknown as FederatedHPAObject[]) {
      seen.add(autoscalerIdOf(cluster, 'FederatedHPA', fhpa.metadata));
      this.upsertFederated(cluster, fhpa);
    }
    this.removeUnlisted(cluster, 'FederatedHPA', seen);
  }

  /**
   * After a complete list of one kind in a cluster: removes what the index holds that the list no longer has, and ends
   * the history of objects a restart read back that the list does not have either. Deleted while Autoscope was down,
   * they were never seen to go: their segments stayed open, and their state was read back again at every start.
   */
  private removeUnlisted(cluster: string, kind: AutoscalerKind, present: ReadonlySet<string>): void {
    for (const id of this.idsOf(cluster, kind)) if (!present.has(id)) this.remove(id);
    if (this.untracked.size === 0) return;
    for (const id of [...this.untracked.keys()]) {
      const ref = parseAutoscalerId(id);
      if (ref?.cluster === cluster && ref.kind === kind && !present.has(id)) this.history.observeDeleted(id, this.nowIso());
    }
  }

  /**
   * Maps one FederatedHPA against its cluster's bindings, policies and member clusters (the lookup is kept
   * until one of those changes). A FederatedHPA's own change is mapped at once, as an HPA's is: two status
   * writes within the recomputation's debounce must both reach history. False while its inputs have not
   * listed (the debounced recomputation maps it once they have).
   */
  private upsertFederated(cluster: string, fhpa: FederatedHPAObject, at?: Date): boolean {
    const source = this.sources(cluster);
    if (!source || !inputsListed(source, federationResources)) return false;
    if (this.heldFederated.has(cluster)) this.releaseHeld(cluster);
    let lookup = this.federationLookups.get(cluster);
    if (!lookup) {
      lookup = {
        index: indexFederationObjects(source.objects('resourceBindings'), source.objects('propagationPolicies')),
        clusters: source.objects('karmadaClusters') as unknown as KarmadaClusterObject[],
      };
      this.federationLookups.set(cluster, lookup);
    }
    const { index, clusters } = lookup;
    const ns = fhpa.metadata.namespace ?? 'default';
    const binding = index.binding(ns, fhpa.spec.scaleTargetRef);
    const policy = index.policy(ns, fhpa.spec.scaleTargetRef);
    const id = autoscalerIdOf(cluster, 'FederatedHPA', fhpa.metadata);
    this.put(
      id,
      cluster,
      'FederatedHPA',
      (ctx, now) => toFederatedAutoscaler(cluster, fhpa, { binding, clusters, policy }, ctx, now),
      fhpa,
      { binding, policy },
      at,
    );
    return true;
  }

  /**
   * Keeps a FederatedHPA version that could not be mapped yet (its inputs have not listed). At most
   * `maxHeldPerCluster` per cluster: past that the oldest are dropped (only their history is lost; the current
   * state is mapped from the informer's cache either way), which bounds what a cluster whose bindings never list holds.
   */
  private holdFederated(cluster: string, fhpa: FederatedHPAObject): void {
    const source = this.sources(cluster);
    if (!source?.serves('federatedHpas')) return;
    const held = this.heldFederated.get(cluster) ?? [];
    held.push({ fhpa, at: this.clock().getTime() });
    if (held.length > maxHeldPerCluster) {
      held.shift();
      // Said once per cluster, at the first drop: the log must not grow with every status write that follows.
      if (!this.heldDropWarned.has(cluster)) {
        this.heldDropWarned.add(cluster);
        log.warn('FederatedHPA versions dropped while their inputs list: their history is incomplete', {
          cluster,
          kept: maxHeldPerCluster,
        });
      }
    }
    this.heldFederated.set(cluster, held);
  }

  /** Maps the held versions, in the order they arrived, each at its arrival time (the inputs have listed). */
  private releaseHeld(cluster: string): void {
    const held = this.heldFederated.get(cluster) ?? [];
    this.heldFederated.delete(cluster);
    this.heldDropWarned.delete(cluster);
    for (const { fhpa, at } of held) this.upsertFederated(cluster, fhpa, new Date(at));
  }

  /**
   * Maps and stores one autoscaler. History is observed first, then the DTO is re-mapped when what
   * history knows (when a condition's reason began, when a problem appeared) moved with it.
   */
  private put(
    id: string,
    cluster: string,
    kind: AutoscalerKind,
    map: (context: MapperContext, now: string) => Autoscaler,
    raw: KubeObject,
    related: RelatedObjects,
    // One reading of the clock per object: mapped, observed and re-mapped at the same instant (in a Next.js
    // server each reading goes through its Date wrapper; three a put were ~1 s of a 100,000-HPA sync).
    clock: Date = this.clock(),
  ): MapperContext {
    const previous = this.entries.get(id);
    // The entry's own version (the minute's re-map, a cross-object recomputation) is not encoded or walked again.
    const held = sameVersion(previous?.held, raw) ? (previous?.held as HeldObject) : hold(raw, kind, this.heldDictionary);
    if (held !== previous?.held) {
      this.heldChanged(previous?.held, held);
      // An object the entry keeps as it is (not an HPA's, kept as JSON), in place (values unchanged): its strings
      // first, so the DTO mapped from it shares them.
      if (held instanceof HeldAsIs && !this.sharedOnArrival) this.strings.internDeep(raw);
    }
    const now = clock.toISOString();
    const before = this.context(id, cluster);
    const canonicalId = previous?.dto.id ?? id;
    let dto = withIdString(map(before, now), canonicalId);
    if (previous && sameDto(previous.dto, dto)) {
      previous.held = held;
      previous.related = related;
      return before;
    }
    this.history.observe(dto, now, raw.metadata.resourceVersion);
    const after = this.context(id, cluster);
    if (!sameContext(after, before)) dto = withIdString(map(after, now), canonicalId);
    if (previous && sameDto(previous.dto, dto)) {
      previous.held = held;
      previous.related = related;
      return after;
    }
    if (!previous) this.byCluster.add(cluster, id);
    this.share(dto, previous?.dto);
    this.entries.set(id, {
      dto,
      held,
      related,
      clockDue: previous?.clockDue ?? 0,
      tracked: previous ? previous.tracked : this.takeUntracked(id),
    });
    this.changed(cluster, previous?.dto ?? null, dto);
    this.publisher?.(cluster, id, { dto, raw, related });
    this.onChanged([id]);
    return after;
  }

  /**
   * A DTO about to be stored made to share what it can: strings and the unchanged parts of the version it replaces
   * (`internDeepSharing`), and the values that repeat whole across the fleet (`shared`): its metric list and an empty
   * problem list.
   */
  private share(dto: Autoscaler, previous: Autoscaler | undefined): void {
    this.strings.internDeepSharing(dto, previous);
    // The uid as history first saw it (the pool leaves unique strings be): one copy, not one more per version.
    if (previous && dto.uid === previous.uid) dto.uid = previous.uid;
    // Kept from the previous version, the list is the pooled one already.
    if (dto.metrics !== previous?.metrics) dto.metrics = this.strings.shared(dto.metrics);
    if (dto.problems.length === 0) dto.problems = this.strings.shared(dto.problems);
  }

  private remove(id: string): void {
    if (!this.entries.has(id)) return;
    // History first: what it knows of the object is on its entry.
    this.history.observeDeleted(id, this.nowIso());
    const entry = this.removeEntry(id);
    if (!entry) return;
    this.publisher?.(entry.dto.cluster, id, null);
    this.onChanged([id]);
  }

  private removeEntry(id: string): IndexEntry | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    // History's state outlives the entry (a replica's remote entry removed while this one still records it).
    if (entry.tracked) this.untracked.set(id, entry.tracked);
    this.heldChanged(entry.held, undefined);
    this.byCluster.delete(entry.dto.cluster, id);
    this.changed(entry.dto.cluster, entry.dto, null);
    return entry;
  }

  /**
   * An autoscaler of a cluster another replica watches, as that replica published it (null: gone). Nothing is
   * recorded here: the owner records history. Listeners are told as for a change seen here.
   */
  applyRemote(cluster: string, id: string, remote: RemoteEntry | null): void {
    if (!remote) {
      if (this.removeEntry(id)) this.onChanged([id]);
      return;
    }
    const previous = this.entries.get(id);
    const held = hold(remote.raw, remote.dto.kind, this.heldDictionary);
    this.heldChanged(previous?.held, held);
    if (held instanceof HeldAsIs) this.strings.internDeep(remote.raw);
    withIdString(remote.dto, previous?.dto.id ?? id);
    if (previous && sameDto(previous.dto, remote.dto)) {
      previous.held = held;
      previous.related = remote.related;
      return;
    }
    this.share(remote.dto, previous?.dto);
    if (!previous) this.byCluster.add(cluster, id);
    this.entries.set(id, {
      dto: remote.dto,
      held,
      related: remote.related,
      clockDue: 0,
      tracked: previous ? previous.tracked : this.takeUntracked(id),
    });
    this.changed(cluster, previous?.dto ?? null, remote.dto);
    this.onChanged([id]);
  }

  /** The ids of one cluster in the index (a replica reloading what it follows drops those no longer published). */
  idsOfCluster(cluster: string): string[] {
    return [...this.byCluster.of(cluster)];
  }

  private recordEvent(cluster: string, object: KubeObject): void {
    // The informer caches this very object: its repeated strings (components, kinds, reasons, times) shared, as an
    // autoscaler's are (at 20,000 HPAs the simulator's ~9,400 cached Events each held their own copies).
    if (!this.sharedOnArrival) this.strings.internDeep(object);
    const { event, autoscalerId, machineSet } = toEventFiling(cluster, object);
    if (autoscalerId) this.history.recordEvent(autoscalerId, event);
    else if (machineSet) {
      for (const id of this.byCluster.of(cluster)) {
        const entry = this.entries.get(id);
        if (entry?.dto.kind === 'MachineAutoscaler' && entry.dto.target.name === machineSet) this.history.recordEvent(id, event);
      }
    }
  }
}
