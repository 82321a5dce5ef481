import type { KubeObject } from '@/lib/k8s/types';
import type {
  AuthoritativeAPI,
  MachineAssessmentContext,
  MachineAutoscalerVerdict,
  MachineFinding,
  MachineSetCapacity,
  MachineSetGroup,
  MachineSetRef,
  MachineTargetResolution,
  ReadyVerdict,
} from './types';
import type {
  ClusterAPIMachineSetObject,
  InfrastructureTemplateObject,
  MachineAPIMachineSetObject,
  MachineAutoscalerObject,
  MachineEventObject,
  MachineSetObject,
} from './wire-types';
import { hasMachineAPIGpuCapacity, isValidGpuAcceleratorLabel, toMachineSetCapacity } from './capacity';
import * as finding from './findings';
import {
  CLUSTER_API_GROUP,
  CLUSTER_API_MAX_SIZE_ANNOTATION,
  CLUSTER_API_MIN_SIZE_ANNOTATION,
  CLUSTER_API_STORAGE_VERSION,
  CLUSTER_AUTOSCALER_NAME,
  GPU_ACCELERATOR_LABEL,
  GPU_LABEL_EVENT_REASON,
  MACHINE_API_GROUP,
  MACHINE_API_MAX_SIZE_ANNOTATION,
  MACHINE_API_MIN_SIZE_ANNOTATION,
  MACHINE_API_VERSION,
  MACHINE_AUTOSCALER_KIND,
  MACHINE_AUTOSCALER_READY_MESSAGE,
  MACHINE_AUTOSCALER_READY_REASON,
  MACHINE_SET_KIND,
  MACHINE_TARGET_OWNER_ANNOTATION,
} from './keys';
import { describeInfrastructureRef, machineSetApiVersion, readMachineSetFacts, splitApiVersion, stringValue } from './machine-set-view';
import type { MachineSetFacts } from './machine-set-view';
import { eventsAbout, indexOperatorEvents } from './operator-events';
import type { EventSubject, OperatorEventIndex } from './operator-events';
import { toOperatorReady } from './operator-ready';
import { parseAtoi, readInteger } from './parse-int';
import { expectedNamespaceFor, isMachineSetGroup, isSupportedTarget, parseTargetRef, supportedTargetList } from './target-ref';
import type { ParsedTargetRef } from './target-ref';

export interface AssessMachineAutoscalersInput {
  machineAutoscalers: readonly MachineAutoscalerObject[];
  machineSets: {
    machineAPI: readonly MachineAPIMachineSetObject[];
    clusterAPI: readonly ClusterAPIMachineSetObject[];
  };
  clusterAutoscalers: readonly KubeObject[];
  /** Infrastructure machine templates (e.g. AWSMachineTemplate) that CAPI sets reference, for scale-from-zero. */
  infrastructureTemplates?: readonly InfrastructureTemplateObject[];
  events?: readonly MachineEventObject[];
  context: MachineAssessmentContext;
}

const GPU_ONLY: ReadonlySet<string> = new Set([GPU_LABEL_EVENT_REASON]);

const DEFAULT_API_VERSION: Record<MachineSetGroup, string> = {
  [MACHINE_API_GROUP]: `${MACHINE_API_GROUP}/${MACHINE_API_VERSION}`,
  [CLUSTER_API_GROUP]: `${CLUSTER_API_GROUP}/${CLUSTER_API_STORAGE_VERSION}`,
};

function groupOfAuthority(authority: 'MachineAPI' | 'ClusterAPI'): MachineSetGroup {
  return authority === 'MachineAPI' ? MACHINE_API_GROUP : CLUSTER_API_GROUP;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function timeOf(timestamp: unknown): number {
  const parsed = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(parsed) ? Number.POSITIVE_INFINITY : parsed;
}

/** The MachineSets of one group, by name (all namespaces, so WrongNamespace can be told from NotFound). */
class MachineSetIndex {
  private readonly byName = new Map<string, MachineSetObject[]>();

  constructor(
    private readonly group: MachineSetGroup,
    objects: readonly MachineSetObject[],
  ) {
    for (const obj of objects) {
      const name = obj.metadata.name;
      if (typeof name !== 'string') continue;
      const bucket = this.byName.get(name);
      if (bucket) bucket.push(obj);
      else this.byName.set(name, [obj]);
    }
  }

  find(name: string, namespace: string): MachineSetObject | null {
    const bucket = this.byName.get(name);
    if (!bucket) return null;
    for (const obj of bucket) if ((obj.metadata.namespace ?? '') === namespace) return obj;
    return null;
  }

  factsOf(obj: MachineSetObject): MachineSetFacts {
    return readMachineSetFacts(obj, this.group);
  }

  refOf(obj: MachineSetObject): MachineSetRef {
    return {
      apiVersion: machineSetApiVersion(obj, this.group),
      kind: obj.kind ?? MACHINE_SET_KIND,
      namespace: obj.metadata.namespace ?? '',
      name: obj.metadata.name,
    };
  }

  /** The first namespace (in byte order) other than `except` holding a set of this name. */
  otherNamespace(name: string, except: string): string | null {
    let found: string | null = null;
    for (const obj of this.byName.get(name) ?? []) {
      const namespace = obj.metadata.namespace ?? '';
      if (namespace !== except && (found === null || namespace < found)) found = namespace;
    }
    return found;
  }
}

/** Capacity is the one costly read, needed only for the authoritative copy of a set some MA resolves to. */
function capacityOf(facts: MachineSetFacts, templates: ReadonlyMap<string, InfrastructureTemplateObject>): MachineSetCapacity {
  const ref = facts.infrastructureRef;
  return toMachineSetCapacity(facts.group, facts.annotations, {
    describedAs: ref ? describeInfrastructureRef(ref) : null,
    template: ref ? (templates.get(templateKey(ref.apiGroup, ref.kind, ref.namespace, ref.name)) ?? null) : null,
  });
}

function templateKey(group: string, kind: string, namespace: string, name: string): string {
  return `${group}\u0000${kind}\u0000${namespace}\u0000${name}`;
}

function indexTemplates(templates: readonly InfrastructureTemplateObject[] | undefined): Map<string, InfrastructureTemplateObject> {
  const index = new Map<string, InfrastructureTemplateObject>();
  for (const template of templates ?? []) {
    const name = template.metadata.name;
    if (typeof name !== 'string' || typeof template.kind !== 'string') continue;
    const { group } = splitApiVersion(template.apiVersion ?? '');
    index.set(templateKey(group, template.kind, template.metadata.namespace ?? '', name), template);
  }
  return index;
}

function toRef(facts: MachineSetFacts | null): MachineSetRef | null {
  return facts ? { apiVersion: facts.apiVersion, kind: facts.kind, namespace: facts.namespace, name: facts.name } : null;
}

/** Per-MachineAutoscaler state between the passes. */
interface Work {
  ma: MachineAutoscalerObject;
  key: string;
  namespace: string;
  name: string;
  created: number;
  reconciled: boolean;
  spec: { min: number; max: number } | null;
  valid: boolean;
  ref: ParsedTargetRef;
  supported: boolean;
  findings: MachineFinding[];
  /** The referenced copy, when found in the namespace its group implies. */
  target: MachineSetFacts | null;
  mapiCopy: MachineSetFacts | null;
  capiCopy: MachineSetFacts | null;
  authority: AuthoritativeAPI | null;
  authoritative: MachineSetFacts | null;
  resolution: MachineTargetResolution;
  duplicateOf: string | null;
}

/**
 * docs/engines/machine.md §5 "Recommended authority rule": the MAPI copy's `status.authoritativeAPI`, else its
 * `spec.authoritativeAPI`, else MachineAPI; a CAPI set without a MAPI copy is standalone and authoritative.
 * Values outside the API's enum are ignored like an empty string.
 */
export function authorityOf(
  mapiCopy: Pick<MachineSetFacts, 'authoritativeAPI' | 'requestedAuthoritativeAPI'> | null,
  capiCopy: object | null,
): AuthoritativeAPI | null {
  if (mapiCopy) return mapiCopy.authoritativeAPI ?? mapiCopy.requestedAuthoritativeAPI ?? 'MachineAPI';
  return capiCopy ? 'ClusterAPI' : null;
}

function checkSpec(ma: MachineAutoscalerObject): { spec: { min: number; max: number } | null; problem: MachineFinding | null } {
  const min = readInteger(ma.spec?.minReplicas);
  const max = readInteger(ma.spec?.maxReplicas);
  if (min === null) return { spec: null, problem: finding.invalidSpec({ kind: 'notAnInteger', field: 'minReplicas' }) };
  if (max === null) return { spec: null, problem: finding.invalidSpec({ kind: 'notAnInteger', field: 'maxReplicas' }) };
  // upstream: validator.go `Validate` rejects max < min; the CRD schema rejects min < 0 and max < 1.
  if (min > max) return { spec: { min, max }, problem: finding.invalidSpec({ kind: 'minGreaterThanMax', min, max }) };
  if (min < 0) return { spec: { min, max }, problem: finding.invalidSpec({ kind: 'minNegative', min }) };
  if (max < 1) return { spec: { min, max }, problem: finding.invalidSpec({ kind: 'maxBelowOne', max }) };
  return { spec: { min, max }, problem: null };
}

function firstPass(ma: MachineAutoscalerObject, context: MachineAssessmentContext, mapi: MachineSetIndex, capi: MachineSetIndex): Work {
  const namespace = ma.metadata.namespace ?? '';
  const name = ma.metadata.name;
  const findings: MachineFinding[] = [];
  const reconciled = namespace === context.operatorNamespace;
  if (!reconciled) findings.push(finding.notReconciled(namespace));
  const { spec, problem } = checkSpec(ma);
  if (problem) findings.push(problem);
  const ref = parseTargetRef(ma.spec?.scaleTargetRef);
  const supported = isSupportedTarget(ref, context);
  if (!supported) {
    findings.push(finding.unsupportedTarget(ref.apiVersion, ref.kind, supportedTargetList(context.operatorSupportsClusterAPITargets)));
  }

  const expectedNamespace = expectedNamespaceFor(ref.group, context);
  const isMachineSetRef = ref.kind === MACHINE_SET_KIND && isMachineSetGroup(ref.group);
  // Resolution is shown even for an unsupported ref to a MachineSet group, so the UI can say which copy exists.
  const mapiObject = isMachineSetRef ? mapi.find(ref.name, context.machineAPINamespace) : null;
  const capiObject = isMachineSetRef ? capi.find(ref.name, context.clusterAPINamespace) : null;
  const refIsMAPI = ref.group === MACHINE_API_GROUP;
  const mapiCopy = mapiObject ? mapi.factsOf(mapiObject) : null;
  const authority = isMachineSetRef ? authorityOf(mapiCopy, capiObject) : null;
  // The CAPI copy of a MachineAPI-authoritative set referenced through MAPI is only ever shown as the mirror.
  const capiCopy = capiObject && (!refIsMAPI || authority !== 'MachineAPI') ? capi.factsOf(capiObject) : null;
  const target = refIsMAPI ? mapiCopy : capiCopy;
  const authoritative = authority === 'MachineAPI' ? mapiCopy : authority === 'ClusterAPI' ? capiCopy : null;
  const requested = mapiCopy?.requestedAuthoritativeAPI ?? null;
  const effective = mapiCopy?.authoritativeAPI ?? null;
  const mirrorObject = refIsMAPI ? capiObject : mapiObject;
  const work: Work = {
    ma,
    key: `${namespace}/${name}`,
    namespace,
    name,
    created: timeOf(ma.metadata.creationTimestamp),
    reconciled,
    spec,
    valid: problem === null,
    ref,
    supported,
    findings,
    target,
    mapiCopy,
    capiCopy,
    authority,
    authoritative,
    resolution: {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      name: ref.name,
      expectedNamespace,
      found: target !== null,
      authoritativeAPI: authority,
      refIsAuthoritative:
        target !== null && (authority === 'MachineAPI' || authority === 'ClusterAPI') ? groupOfAuthority(authority) === ref.group : null,
      authoritativeCopy: toRef(authoritative),
      mirror: mirrorObject ? (refIsMAPI ? capi : mapi).refOf(mirrorObject) : null,
      requestedAuthoritativeAPI: requested,
      migrationPending: requested !== null && effective !== null && requested !== effective,
    },
    duplicateOf: null,
  };

  if (!supported || !isMachineSetRef || target !== null) return work;
  const ownIndex = refIsMAPI ? mapi : capi;
  const elsewhere = ownIndex.otherNamespace(ref.name, expectedNamespace);
  if (elsewhere !== null) {
    findings.push(finding.targetWrongNamespace(ref.name, ref.group, elsewhere, expectedNamespace));
    return work;
  }
  const other = work.resolution.mirror;
  const otherGroup = refIsMAPI ? CLUSTER_API_GROUP : MACHINE_API_GROUP;
  // No hint towards a Cluster API ref the operator would reject as unsupported.
  const hintUsable = other !== null && (otherGroup === MACHINE_API_GROUP || context.operatorSupportsClusterAPITargets);
  findings.push(
    finding.targetNotFound(
      ref.name,
      expectedNamespace,
      ref.group,
      other && hintUsable ? { otherGroup, otherNamespace: other.namespace, otherApiVersion: other.apiVersion } : null,
    ),
  );
  return work;
}

function byAgeThenName(a: Work, b: Work): number {
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  return compareStrings(a.key, b.key);
}

/**
 * docs/engines/machine.md §7 step 4. The owner annotation is the operator's own record of who won (`SetOwner`, machinetarget.go);
 * failing that the oldest MA on the authoritative copy, then the oldest MA. Under the merged design only the
 * authoritative copy can receive the annotation, which is why it is read there first.
 */
function pickWinner(members: Work[]): Work {
  const sample = members[0] as Work;
  const sources = sample.authoritative ? [sample.authoritative] : [sample.mapiCopy, sample.capiCopy];
  for (const source of sources) {
    const owner = source ? stringValue(source.annotations, MACHINE_TARGET_OWNER_ANNOTATION) : undefined;
    const named = owner === undefined ? undefined : members.find((member) => member.key === owner);
    if (named) return named;
  }
  const sorted = [...members].sort(byAgeThenName);
  return sorted.find((member) => member.resolution.refIsAuthoritative === true) ?? (sorted[0] as Work);
}

function markDuplicates(works: Work[]): void {
  const groups = new Map<string, Work[]>();
  for (const work of works) {
    if (!work.reconciled || !work.valid || !work.supported || work.target === null) continue;
    const group = groups.get(work.ref.name);
    if (group) group.push(work);
    else groups.set(work.ref.name, [work]);
  }
  for (const [name, members] of groups) {
    if (members.length < 2) continue;
    const winner = pickWinner(members);
    for (const member of members) {
      if (member === winner) continue;
      member.duplicateOf = winner.key;
      member.findings.push(finding.duplicateTargetScaleRef(name, winner.key));
    }
  }
}

function annotationKeysFor(group: MachineSetGroup): { min: string; max: string } {
  return group === MACHINE_API_GROUP
    ? { min: MACHINE_API_MIN_SIZE_ANNOTATION, max: MACHINE_API_MAX_SIZE_ANNOTATION }
    : { min: CLUSTER_API_MIN_SIZE_ANNOTATION, max: CLUSTER_API_MAX_SIZE_ANNOTATION };
}

/** docs/engines/machine.md §6 rows 12–13; parsing follows parseScalingBounds/GetLimits (`strconv.Atoi`, negatives rejected). */
function checkAnnotations(authoritative: MachineSetFacts, spec: { min: number; max: number } | null): MachineFinding | null {
  const keys = annotationKeysFor(authoritative.group);
  const min = stringValue(authoritative.annotations, keys.min);
  const max = stringValue(authoritative.annotations, keys.max);
  if (min === undefined || max === undefined) {
    const missing = [min === undefined ? keys.min : null, max === undefined ? keys.max : null].filter((key): key is string => key !== null);
    return finding.targetAnnotationsMissing(authoritative.namespace, authoritative.name, missing);
  }
  if (spec === null) return null;
  const parsedMin = parseAtoi(min);
  const parsedMax = parseAtoi(max);
  const usable = parsedMin !== null && parsedMax !== null && parsedMin >= 0 && parsedMax > 0 && parsedMax >= parsedMin;
  if (usable && parsedMin === spec.min && parsedMax === spec.max) return null;
  return finding.targetAnnotationsMismatch(authoritative.namespace, authoritative.name, { min, max }, spec);
}

function secondPass(
  work: Work,
  /** Every MachineAutoscaler's key → the MachineSet name it references. */
  maTargets: ReadonlyMap<string, string>,
  hasClusterAutoscaler: boolean,
  templates: ReadonlyMap<string, InfrastructureTemplateObject>,
): void {
  const { target, ref, findings, authority, authoritative, mapiCopy, capiCopy } = work;
  if (!work.supported || target === null) return;

  if (work.resolution.refIsAuthoritative === false && (authority === 'MachineAPI' || authority === 'ClusterAPI')) {
    const apiVersion = authoritative?.apiVersion ?? DEFAULT_API_VERSION[groupOfAuthority(authority)];
    findings.push(finding.nonAuthoritativeTargetScaleRef(authority, ref.name, apiVersion));
  }
  if (authority === 'Migrating') {
    const heading = mapiCopy?.requestedAuthoritativeAPI ?? null;
    let afterwards: string | null = null;
    if (heading !== null && groupOfAuthority(heading) !== ref.group) {
      const destination = heading === 'MachineAPI' ? mapiCopy : capiCopy;
      afterwards = destination?.apiVersion ?? DEFAULT_API_VERSION[groupOfAuthority(heading)];
    }
    findings.push(finding.targetMigrating(ref.name, afterwards));
  }
  if (target.deletionTimestamp !== null || (authoritative?.deletionTimestamp ?? null) !== null) {
    findings.push(finding.targetDeleting(ref.name));
  }

  if (work.duplicateOf === null && authoritative !== null) {
    if (authoritative.group === CLUSTER_API_GROUP && authoritative.paused) {
      findings.push(finding.targetPaused(authoritative.namespace, authoritative.name));
    }
    const owner = stringValue(authoritative.annotations, MACHINE_TARGET_OWNER_ANNOTATION);
    if (owner !== undefined && owner !== work.key) {
      const ownerTarget = maTargets.get(owner);
      if (ownerTarget === undefined) findings.push(finding.targetOwnedByAnother(ref.name, owner));
      // An owner on the same physical set is the duplicate rule's business, not this one's.
      else if (ownerTarget !== ref.name) findings.push(finding.targetOwnedByAnother(ref.name, owner, ownerTarget));
    }
    const annotationProblem = checkAnnotations(authoritative, work.spec);
    if (annotationProblem) findings.push(annotationProblem);
    const zeroReplicas = authoritative.desiredReplicas === 0;
    if (zeroReplicas || work.spec?.min === 0) {
      const capacity = capacityOf(authoritative, templates);
      if (!capacity.canScaleFromZero) findings.push(finding.scaleFromZeroUnsupported(ref.name, capacity.checked, zeroReplicas));
    }
    if (
      authoritative.group === MACHINE_API_GROUP &&
      hasMachineAPIGpuCapacity(authoritative.annotations) &&
      !isValidGpuAcceleratorLabel(authoritative.templateLabels[GPU_ACCELERATOR_LABEL])
    ) {
      findings.push(finding.gpuAcceleratorLabelMissing(authoritative.name));
    }
  }

  if (!hasClusterAutoscaler) findings.push(finding.clusterAutoscalerMissing());
  const synchronized = mapiCopy?.synchronized;
  if (mapiCopy && synchronized && synchronized.status !== 'True') {
    const fromClusterAPI = authority === 'ClusterAPI' || (authority === 'Migrating' && mapiCopy.synchronizedAPI === 'ClusterAPI');
    findings.push(
      finding.mirrorNotSynchronized(mapiCopy.name, fromClusterAPI ? 'from' : 'to', synchronized.status, synchronized.reason ?? '(none)'),
    );
  }
}

/** docs/engines/machine.md §7 step 8. */
export function toDerivedReady(findings: readonly MachineFinding[]): ReadyVerdict {
  let unknown: MachineFinding | null = null;
  for (const item of findings) {
    if (item.severity === 'error') return { status: 'False', reason: item.code, message: item.message };
    if (item.severity === 'unknown') unknown ??= item;
  }
  if (unknown) return { status: 'Unknown', reason: unknown.code, message: unknown.message };
  return { status: 'True', reason: MACHINE_AUTOSCALER_READY_REASON, message: MACHINE_AUTOSCALER_READY_MESSAGE };
}

function eventsFor(work: Work, index: OperatorEventIndex): MachineAutoscalerVerdict['events'] {
  const subjects: EventSubject[] = [
    { kind: MACHINE_AUTOSCALER_KIND, namespace: work.namespace, name: work.name, uid: work.ma.metadata.uid ?? null },
  ];
  for (const copy of [work.target, work.authoritative]) {
    if (copy) subjects.push({ kind: MACHINE_SET_KIND, namespace: copy.namespace, name: copy.name, uid: copy.uid, reasons: GPU_ONLY });
  }
  return eventsAbout(index, subjects);
}

/**
 * Resolves every MachineAutoscaler's target and derives its Ready verdict from cluster state
 * (docs/engines/machine.md §5–§7). Pure and near-linear: MachineSets, templates and events are indexed once.
 * Verdicts come back ordered by namespace, then name.
 */
export function assessMachineAutoscalers(input: AssessMachineAutoscalersInput): MachineAutoscalerVerdict[] {
  const { context } = input;
  const templates = indexTemplates(input.infrastructureTemplates);
  const mapi = new MachineSetIndex(MACHINE_API_GROUP, input.machineSets.machineAPI);
  const capi = new MachineSetIndex(CLUSTER_API_GROUP, input.machineSets.clusterAPI);
  const events = indexOperatorEvents(input.events);
  const hasClusterAutoscaler = input.clusterAutoscalers.some((ca) => ca.metadata.name === CLUSTER_AUTOSCALER_NAME);

  const machineAutoscalers = input.machineAutoscalers
    .filter((ma) => typeof ma.metadata.name === 'string')
    .slice()
    .sort(
      (a, b) => compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareStrings(a.metadata.name, b.metadata.name),
    );
  const works = machineAutoscalers.map((ma) => firstPass(ma, context, mapi, capi));
  const maTargets = new Map(works.map((w) => [w.key, w.ref.name]));
  markDuplicates(works);
  return works.map((work) => {
    secondPass(work, maTargets, hasClusterAutoscaler, templates);
    const findings = work.findings.sort(finding.compareFindings);
    return {
      machineAutoscaler: work.key,
      operatorReady: toOperatorReady(work.ma.status?.conditions),
      derivedReady: toDerivedReady(findings),
      findings,
      target: work.resolution,
      events: eventsFor(work, events),
    };
  });
}
