import type { CoreEvent } from '@/lib/k8s/types';
import type { MachineAutoscalerEvent } from './types';
import type { EventsV1Event, MachineEventObject } from './wire-types';
import { MACHINE_AUTOSCALER_EVENT_REASONS } from './keys';

interface IndexedEvent {
  event: MachineAutoscalerEvent;
  uid: string | null;
  time: number;
  name: string;
}

/** Operator events grouped by the object they are about (`kind`, `namespace`, `name`). */
export type OperatorEventIndex = Map<string, IndexedEvent[]>;

const OPERATOR_REASONS = new Set(MACHINE_AUTOSCALER_EVENT_REASONS);

function objectKey(kind: string, namespace: string, name: string): string {
  return `${kind}\u0000${namespace}\u0000${name}`;
}

function firstString(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === 'string' && value.length > 0) return value;
  return null;
}

function isEventsV1(event: MachineEventObject): event is EventsV1Event {
  return typeof (event as EventsV1Event).regarding === 'object' && (event as EventsV1Event).regarding !== null;
}

/**
 * Reads an event in either format. events.k8s.io/v1 maps onto core/v1 as `regarding` = `involvedObject` and
 * `note` = `message` (specs §2); its last occurrence is `series.lastObservedTime`, else `eventTime`, else the
 * deprecated core timestamps the apiserver fills in when a core/v1 client wrote it.
 */
function normalise(raw: MachineEventObject): { key: string; entry: IndexedEvent } | null {
  if (raw === null || typeof raw !== 'object') return null;
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
    const core = raw as CoreEvent;
    about = core.involvedObject;
    message = firstString(core.message);
    timestamp = firstString(core.lastTimestamp, core.eventTime, core.firstTimestamp);
    count = core.count ?? null;
  }
  if (!about || typeof about.kind !== 'string' || typeof about.name !== 'string') return null;
  timestamp ??= firstString(raw.metadata?.creationTimestamp);
  const parsed = timestamp === null ? Number.NaN : Date.parse(timestamp);
  return {
    key: objectKey(about.kind, about.namespace ?? raw.metadata?.namespace ?? '', about.name),
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
      name: typeof raw.metadata?.name === 'string' ? raw.metadata.name : '',
    },
  };
}

function newestFirst(a: IndexedEvent, b: IndexedEvent): number {
  if (a.time !== b.time) return b.time > a.time ? 1 : -1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Indexes the operator's events (reasons of specs §2) once, so each lookup is a map hit. */
export function indexOperatorEvents(events: readonly MachineEventObject[] | undefined): OperatorEventIndex {
  const index: OperatorEventIndex = new Map();
  for (const raw of events ?? []) {
    const normalised = normalise(raw);
    if (!normalised) continue;
    const bucket = index.get(normalised.key);
    if (bucket) bucket.push(normalised.entry);
    else index.set(normalised.key, [normalised.entry]);
  }
  for (const bucket of index.values()) bucket.sort(newestFirst);
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

/** The events about any of `subjects`, newest first. */
export function eventsAbout(index: OperatorEventIndex, subjects: readonly EventSubject[]): MachineAutoscalerEvent[] {
  const picked: IndexedEvent[] = [];
  const seen = new Set<string>();
  for (const subject of subjects) {
    const key = objectKey(subject.kind, subject.namespace, subject.name);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const entry of index.get(key) ?? []) {
      if (subject.uid && entry.uid && subject.uid !== entry.uid) continue;
      if (subject.reasons && !subject.reasons.has(entry.event.reason)) continue;
      picked.push(entry);
    }
  }
  if (subjects.length > 1) picked.sort(newestFirst);
  return picked.map((entry) => ({ ...entry.event }));
}
