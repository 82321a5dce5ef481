import type { MachineAutoscalerEvent } from './types';
import type { EventsV1Event, MachineEventObject } from './wire-types';
import { MACHINE_AUTOSCALER_EVENT_REASONS } from './keys';

interface IndexedEvent {
  event: MachineAutoscalerEvent;
  uid: string | null;
  time: number;
  name: string;
}

/** Operator events grouped by the object they are about: kind → namespace → name. */
export type OperatorEventIndex = Map<string, Map<string, Map<string, IndexedEvent[]>>>;

const OPERATOR_REASONS = new Set(MACHINE_AUTOSCALER_EVENT_REASONS);

function firstString(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === 'string' && value.length > 0) return value;
  return null;
}

function isEventsV1(event: MachineEventObject): event is EventsV1Event {
  return 'regarding' in event && typeof event.regarding === 'object';
}

/**
 * Reads an event in either format. events.k8s.io/v1 maps onto core/v1 as `regarding` = `involvedObject` and
 * `note` = `message` (docs/engines/machine.md §2); its last occurrence is `series.lastObservedTime`, else `eventTime`, else the
 * deprecated core timestamps the apiserver fills in when a core/v1 client wrote it.
 */
function normalise(raw: MachineEventObject): { kind: string; namespace: string; name: string; entry: IndexedEvent } | null {
  const reason = typeof raw.reason === 'string' ? raw.reason : '';
  if (!OPERATOR_REASONS.has(reason)) return null;
  let about: { kind?: string; name?: string; namespace?: string; uid?: string } | undefined;
  let message: string | null;
  let timestamp: string | null;
  let count: number | null;
  if (isEventsV1(raw)) {
    about = raw.regarding;
    message = firstString(raw.note);
    timestamp = firstString(raw.series?.lastObservedTime, raw.eventTime, raw.deprecatedLastTimestamp, raw.deprecatedFirstTimestamp);
    count = raw.series?.count ?? raw.deprecatedCount ?? null;
  } else {
    const core = raw;
    about = core.involvedObject;
    message = firstString(core.message);
    timestamp = firstString(core.lastTimestamp, core.eventTime, core.firstTimestamp);
    count = core.count ?? null;
  }
  if (!about || typeof about.kind !== 'string' || typeof about.name !== 'string') return null;
  timestamp ??= firstString(raw.metadata.creationTimestamp);
  const parsed = timestamp === null ? Number.NaN : Date.parse(timestamp);
  return {
    kind: about.kind,
    namespace: about.namespace ?? raw.metadata.namespace ?? '',
    name: about.name,
    entry: {
      event: {
        type: typeof raw.type === 'string' ? raw.type : '',
        reason,
        regardingKind: about.kind,
        message: message ?? '',
        timestamp,
        count: typeof count === 'number' && count > 0 ? count : 1,
      },
      uid: firstString(about.uid),
      time: Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed,
      name: raw.metadata.name,
    },
  };
}

function newestFirst(a: IndexedEvent, b: IndexedEvent): number {
  if (a.time !== b.time) return b.time > a.time ? 1 : -1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function bucketFor(index: OperatorEventIndex, kind: string, namespace: string, name: string): IndexedEvent[] {
  let byNamespace = index.get(kind);
  if (!byNamespace) index.set(kind, (byNamespace = new Map<string, Map<string, IndexedEvent[]>>()));
  let byName = byNamespace.get(namespace);
  if (!byName) byNamespace.set(namespace, (byName = new Map<string, IndexedEvent[]>()));
  let bucket = byName.get(name);
  if (!bucket) byName.set(name, (bucket = []));
  return bucket;
}

/** Indexes the operator's events (reasons of docs/engines/machine.md §2) once, so each lookup is three map hits and no string building. */
export function indexOperatorEvents(events: readonly MachineEventObject[] | undefined): OperatorEventIndex {
  const index: OperatorEventIndex = new Map();
  for (const raw of events ?? []) {
    const normalised = normalise(raw);
    if (normalised) bucketFor(index, normalised.kind, normalised.namespace, normalised.name).push(normalised.entry);
  }
  for (const byNamespace of index.values()) {
    for (const byName of byNamespace.values()) for (const bucket of byName.values()) bucket.sort(newestFirst);
  }
  return index;
}

export interface EventSubject {
  kind: string;
  namespace: string;
  name: string;
  /** When both the subject and an event carry a uid, they must match: an event about a deleted namesake is not ours. */
  uid?: string | null;
  /** Restricts the reasons taken from this subject (the MachineSet only gets the GPU warning). */
  reasons?: ReadonlySet<string>;
}

function sameSubject(a: EventSubject, b: EventSubject): boolean {
  return a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;
}

/**
 * The events about any of `subjects`, newest first. The event objects are fresh from `indexOperatorEvents` and
 * shared, not copied, when one event concerns several verdicts (a MachineSet warning under two MachineAutoscalers).
 */
export function eventsAbout(index: OperatorEventIndex, subjects: readonly EventSubject[]): MachineAutoscalerEvent[] {
  const picked: IndexedEvent[] = [];
  let sources = 0;
  for (let i = 0; i < subjects.length; i++) {
    const subject = subjects[i] as EventSubject;
    let repeated = false;
    for (let j = 0; j < i && !repeated; j++) repeated = sameSubject(subjects[j] as EventSubject, subject);
    if (repeated) continue;
    const bucket = index.get(subject.kind)?.get(subject.namespace)?.get(subject.name);
    if (!bucket) continue;
    sources++;
    for (const entry of bucket) {
      if (subject.uid && entry.uid && subject.uid !== entry.uid) continue;
      if (subject.reasons && !subject.reasons.has(entry.event.reason)) continue;
      picked.push(entry);
    }
  }
  if (sources > 1) picked.sort(newestFirst);
  const events: MachineAutoscalerEvent[] = [];
  for (const entry of picked) events.push(entry.event);
  return events;
}
