import type { Autoscaler, Problem } from '@/lib/api/autoscaler';
import type { KubeObject } from '@/lib/k8s/types';
import { assessMachineAutoscalers, toDerivedReady } from '@/lib/machine/assess';
import { DEFAULT_CLUSTER_API_NAMESPACE, DEFAULT_MACHINE_API_NAMESPACE, DEFAULT_OPERATOR_NAMESPACE } from '@/lib/machine/keys';
import type {
  ClusterAPIMachineSetObject,
  MachineAPIMachineSetObject,
  MachineAutoscalerObject,
  MachineSetObject,
} from '@/lib/machine/wire-types';
import { indexFederationObjects } from '@/lib/triage/federation-placement';
import { healthOfProblems, sortProblems } from '@/lib/triage/health-rules';
import type { FederatedHPAObject, KarmadaClusterObject, PropagationPolicyObject, ResourceBindingObject } from '@/lib/triage/karmada-types';
import type { Instant, MapperContext } from '@/lib/triage/mapper-context';
import { toFederatedAutoscaler } from '@/lib/triage/to-federated-autoscaler';
import { toHpaAutoscaler } from '@/lib/triage/to-hpa-autoscaler';
import { toMachineAutoscaler } from '@/lib/triage/to-machine-autoscaler';
import { HPA_VERSIONS, toV2Hpa } from './convert-hpa';
import { parseDescribe } from './describe-hpa';

/**
 * Diagnose a paste: the objects (or describe text) someone copied from a terminal, through the same
 * mappers the fleet view uses, plus sentences for what the paste lacks. Pure: nothing here reaches a
 * cluster; `now` is the caller's.
 */

export interface DiagnoseResult {
  items: Autoscaler[];
  unread: string[];
}

/** The cluster name pasted objects carry in their DTO: they come from no configured cluster. */
export const PASTE_CLUSTER = 'paste';

/** A paste has no history: no staleness, no observed since. */
const PASTE_CONTEXT: MapperContext = { stale: false };

/** Code of the problem that stands where a paste lacks what a verdict needs. */
export const NOT_IN_PASTE = 'NotInPaste';

function notInPaste(message: string, hint: string): Problem {
  return { code: NOT_IN_PASTE, severity: 'unknown', title: 'Not in this paste', message, since: null, hint };
}

function objectName(o: KubeObject): string {
  return `${o.kind ?? 'object'} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
}

/** List and v1 List-like objects (`kubectl get -o yaml` of several) flattened to their items. */
export function flattenObjects(docs: readonly unknown[]): { objects: KubeObject[]; unread: string[] } {
  const objects: KubeObject[] = [];
  const unread: string[] = [];
  const visit = (d: unknown): void => {
    if (d === null || d === undefined) return;
    if (Array.isArray(d)) return d.forEach(visit);
    if (typeof d !== 'object') {
      unread.push(`a document is not an object (${typeof d}), so it was skipped`);
      return;
    }
    const o = d as Record<string, unknown>;
    if (Array.isArray(o.items) && (typeof o.kind !== 'string' || o.kind.endsWith('List'))) return (o.items as unknown[]).forEach(visit);
    const metadata = o.metadata as { name?: unknown } | undefined;
    if (typeof o.kind !== 'string' || typeof metadata?.name !== 'string') {
      unread.push('a document has no kind or metadata.name, so it is not a Kubernetes object and was skipped');
      return;
    }
    objects.push(o as unknown as KubeObject);
  };
  docs.forEach(visit);
  return { objects, unread };
}

const group = (o: KubeObject): string => (o.apiVersion ?? '').split('/')[0] ?? '';

/** Replace findings a paste cannot support with one `unknown` problem, and say so. */
function withoutGuesses(a: Autoscaler, drop: ReadonlySet<string>, reason: string, hint: string): Autoscaler {
  if (drop.size === 0 || !a.problems.some((p) => drop.has(p.code))) return a;
  const problems = sortProblems([...a.problems.filter((p) => !drop.has(p.code)), notInPaste(reason, hint)]);
  return { ...a, problems, health: healthOfProblems(problems) };
}

/** The objects of a `kubectl get -o yaml|json` paste, as DTOs. */
export function diagnoseObjects(docs: readonly unknown[], now: Instant): DiagnoseResult {
  const { objects, unread } = flattenObjects(docs);
  const items: Autoscaler[] = [];
  const of = (kind: string, g?: string): KubeObject[] => objects.filter((o) => o.kind === kind && (g === undefined || group(o) === g));

  for (const o of of('HorizontalPodAutoscaler', 'autoscaling')) {
    if (!(HPA_VERSIONS as readonly string[]).includes(o.apiVersion ?? '')) {
      unread.push(`${objectName(o)} has apiVersion ${o.apiVersion ?? '(none)'}, which no API server serves; read as autoscaling/v2`);
    }
    const { hpa, notes } = toV2Hpa(o);
    unread.push(...notes.map((n) => `${objectName(o)}: ${n}`));
    let dto = toHpaAutoscaler(PASTE_CLUSTER, hpa, PASTE_CONTEXT, now);
    if (!hpa.status) {
      unread.push(`${objectName(o)} has no status in this paste (a manifest, not kubectl get output): the verdict needs status.conditions`);
      dto = withoutGuesses(
        dto,
        new Set(['ConditionsAbsent']),
        'no status in this paste: the verdict needs status.conditions',
        'paste kubectl get hpa -o yaml, which includes the status',
      );
    }
    items.push(dto);
  }

  const fhpas = of('FederatedHPA', 'autoscaling.karmada.io') as FederatedHPAObject[];
  if (fhpas.length > 0) {
    const bindings = of('ResourceBinding', 'work.karmada.io') as ResourceBindingObject[];
    const policies = of('PropagationPolicy', 'policy.karmada.io') as PropagationPolicyObject[];
    const clusters = of('Cluster', 'cluster.karmada.io') as KarmadaClusterObject[];
    const lookup = indexFederationObjects(bindings, policies);
    for (const f of fhpas) {
      const ns = f.metadata.namespace ?? 'default';
      const binding = lookup.binding(ns, f.spec.scaleTargetRef);
      if (!binding) unread.push(`no ResourceBinding for ${objectName(f)}'s target in this paste: its member clusters are not known`);
      let dto = toFederatedAutoscaler(
        PASTE_CLUSTER,
        f,
        { binding, clusters, policy: lookup.policy(ns, f.spec.scaleTargetRef) },
        PASTE_CONTEXT,
        now,
      );
      if (binding && clusters.length === 0) {
        unread.push(`no Karmada Cluster objects in this paste: whether ${objectName(f)}'s member clusters are Ready is not known`);
        dto = withoutGuesses(
          dto,
          new Set(['MemberClusterNotReady']),
          'no Karmada Cluster objects in this paste: member readiness is not known',
          'paste kubectl get clusters -o yaml from the Karmada control plane too',
        );
      }
      items.push(dto);
    }
  }

  const machineAutoscalers = of('MachineAutoscaler', 'autoscaling.openshift.io') as MachineAutoscalerObject[];
  if (machineAutoscalers.length > 0) {
    const mapi = of('MachineSet', 'machine.openshift.io') as MachineAPIMachineSetObject[];
    const capi = of('MachineSet', 'cluster.x-k8s.io') as ClusterAPIMachineSetObject[];
    const clusterAutoscalers = of('ClusterAutoscaler', 'autoscaling.openshift.io');
    const verdicts = assessMachineAutoscalers({
      machineAutoscalers,
      machineSets: { machineAPI: mapi, clusterAPI: capi },
      clusterAutoscalers,
      events: [],
      context: {
        operatorNamespace: DEFAULT_OPERATOR_NAMESPACE,
        machineAPINamespace: DEFAULT_MACHINE_API_NAMESPACE,
        clusterAPINamespace: DEFAULT_CLUSTER_API_NAMESPACE,
        // A paste has no CRD to tell; the current operator accepts cluster.x-k8s.io targets.
        operatorSupportsClusterAPITargets: true,
      },
    });
    const noSets = mapi.length + capi.length === 0;
    const noClusterAutoscaler = clusterAutoscalers.length === 0;
    if (noSets)
      unread.push(
        'no MachineSets in this paste: whether the MachineAutoscalers’ targets exist is not known (paste oc get machinesets -n openshift-machine-api -o yaml too)',
      );
    if (noClusterAutoscaler)
      unread.push('no ClusterAutoscaler in this paste: whether one exists is not known (paste oc get clusterautoscaler -o yaml too)');
    const guesses = new Set([
      ...(noSets ? ['MachineAutoscalerTargetNotFound'] : []),
      ...(noClusterAutoscaler ? ['ClusterAutoscalerMissing'] : []),
    ]);
    for (const verdict of verdicts) {
      const ma = machineAutoscalers.find((m) => `${m.metadata.namespace ?? ''}/${m.metadata.name}` === verdict.machineAutoscaler);
      if (!ma) continue;
      const findings = verdict.findings.filter((f) => !guesses.has(f.code));
      const dropped = findings.length !== verdict.findings.length;
      const v = dropped ? { ...verdict, findings, derivedReady: toDerivedReady(findings) } : verdict;
      const copy = v.target.authoritativeCopy;
      const pool: MachineSetObject[] = copy?.apiVersion.startsWith('machine.openshift.io/') ? mapi : capi;
      const target = copy ? (pool.find((s) => s.metadata.namespace === copy.namespace && s.metadata.name === copy.name) ?? null) : null;
      let dto = toMachineAutoscaler(PASTE_CLUSTER, ma, v, target, PASTE_CONTEXT, now);
      if (dropped) {
        const problems = sortProblems([
          ...dto.problems,
          notInPaste(
            'the paste lacks objects this verdict needs (see what the paste lacks)',
            'paste the MachineSets and the ClusterAutoscaler together with the MachineAutoscaler',
          ),
        ]);
        dto = { ...dto, problems, health: healthOfProblems(problems) };
      }
      items.push(dto);
    }
  }

  const read = new Set<KubeObject>([...of('HorizontalPodAutoscaler', 'autoscaling'), ...fhpas, ...machineAutoscalers]);
  const companions = new Set(['MachineSet', 'ClusterAutoscaler', 'ResourceBinding', 'PropagationPolicy', 'Cluster']);
  const others = objects.filter((o) => !read.has(o) && !companions.has(o.kind ?? ''));
  if (others.length > 0)
    unread.push(
      `not an autoscaler, so not diagnosed: ${others.slice(0, 5).map(objectName).join(', ')}${others.length > 5 ? ` and ${others.length - 5} more` : ''}`,
    );
  if (items.length === 0 && objects.length > 0) unread.push('no HorizontalPodAutoscaler, FederatedHPA or MachineAutoscaler in this paste');
  return { items, unread };
}

/** `kubectl describe hpa` text, as DTOs; what the text lacks becomes an unknown problem, never a reading. */
export function diagnoseDescribe(text: string, now: Instant): DiagnoseResult {
  const items: Autoscaler[] = [];
  const unread: string[] = [];
  for (const d of parseDescribe(text)) {
    let dto = toHpaAutoscaler(PASTE_CLUSTER, d.hpa, PASTE_CONTEXT, now);
    if (!d.conditionsKnown) {
      dto = withoutGuesses(
        dto,
        new Set(['ConditionsAbsent']),
        'no conditions in this paste: the verdict needs the Conditions block',
        'paste the whole kubectl describe hpa output, or kubectl get hpa -o yaml',
      );
    }
    const label = d.hpa.metadata.name ? `${d.hpa.metadata.name}: ` : '';
    unread.push(...d.unread.map((u) => `${label}${u}`));
    items.push(dto);
  }
  if (items.length === 0) unread.push('no HPA found in this text: paste kubectl describe hpa or kubectl get hpa -o yaml output');
  return { items, unread };
}
