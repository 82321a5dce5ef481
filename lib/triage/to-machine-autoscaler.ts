import type { Autoscaler, AutoscalerCondition, AutoscalerTarget, Problem } from '@/lib/api/autoscaler';
import type { MachineAutoscalerVerdict } from '@/lib/machine/types';
import type { MachineAutoscalerObject, MachineSetObject } from '@/lib/machine/wire-types';
import { autoscalerDto, namespaceOf, toAutoscalerBase } from '@/lib/triage/autoscaler-base';
import { conditionMeaning } from '@/lib/triage/condition-meaning';
import { healthOfProblems, REPLICAS_MISMATCH_SECONDS, sortProblems } from '@/lib/triage/health-rules';
import { hintFor } from '@/lib/triage/hints';
import type { HintFacts } from '@/lib/triage/hints';
import { secondsSince, toEpochMs } from '@/lib/triage/mapper-context';
import type { Instant, MapperContext } from '@/lib/triage/mapper-context';

/**
 * A MachineAutoscaler with lib/machine's verdict as the Autoscaler DTO. The shipped operator writes no
 * conditions (docs/engines/machine.md §3), so `conditions` holds one `Ready`: the derived verdict.
 * Replicas come from the authoritative MachineSet (`spec.replicas` desired, `status.replicas` current).
 */
export function toMachineAutoscaler(
  cluster: string,
  ma: MachineAutoscalerObject,
  verdict: MachineAutoscalerVerdict,
  targetMachineSet: MachineSetObject | null,
  context: MapperContext,
  now: Instant,
): Autoscaler {
  const kind = 'MachineAutoscaler';
  const namespace = namespaceOf(ma.metadata);
  const name = ma.metadata.name;
  const nowMs = toEpochMs(now);
  const target: AutoscalerTarget = {
    apiVersion: verdict.target.apiVersion,
    kind: verdict.target.kind,
    name: verdict.target.name,
    namespace: verdict.target.expectedNamespace,
  };
  const minReplicas = ma.spec?.minReplicas ?? null;
  const maxReplicas = ma.spec?.maxReplicas ?? null;
  const currentReplicas = targetMachineSet?.status?.replicas ?? null;
  const desiredReplicas = targetMachineSet?.spec?.replicas ?? null;
  const facts = (message: string): HintFacts => ({
    kind,
    cluster,
    namespace,
    name,
    target,
    message,
    minReplicas,
    maxReplicas,
    currentReplicas,
    desiredReplicas,
  });

  const ready = verdict.derivedReady;
  const operator = verdict.operatorReady;
  const readySince =
    context.conditionSince?.Ready ?? (operator && operator.status === ready.status ? (operator.lastTransitionTime ?? null) : null);
  const condition: AutoscalerCondition = {
    type: 'Ready',
    status: ready.status,
    reason: ready.reason || null,
    message: ready.message || null,
    lastTransitionTime: readySince,
    meaning: conditionMeaning(kind, { type: 'Ready', status: ready.status, reason: ready.reason }),
  };

  const problems: Problem[] = verdict.findings.map((f) => {
    const { title, hint } = hintFor(f.code, facts(f.message));
    const since = f.code === ready.reason ? readySince : (context.problemSince?.[f.code] ?? null);
    return { code: f.code, severity: f.severity, title, message: f.message, since, hint };
  });
  // The verdict's Ready comes from its findings (§7 step 8); guard against a verdict that says otherwise.
  const expected = ready.status === 'False' ? 'error' : ready.status === 'Unknown' ? 'unknown' : null;
  if (expected && !problems.some((p) => p.severity === expected)) {
    const { title, hint } = hintFor(ready.reason, facts(ready.message));
    problems.push({ code: ready.reason, severity: expected, title, message: ready.message, since: readySince, hint });
  }
  if (currentReplicas !== null && desiredReplicas !== null && currentReplicas !== desiredReplicas) {
    const since = context.replicasMismatchSince ?? null;
    const held = secondsSince(since, nowMs);
    if (held !== null && held >= REPLICAS_MISMATCH_SECONDS) {
      const message = `MachineSet ${target.name} spec.replicas ${desiredReplicas} ≠ status.replicas ${currentReplicas} since ${since}`;
      const { title, hint } = hintFor('ReplicasMismatch', facts(message));
      problems.push({ code: 'ReplicasMismatch', severity: 'warning', title, message, since, hint });
    }
  }
  const sorted = sortProblems(problems);

  const dto = autoscalerDto(toAutoscalerBase(cluster, kind, ma.metadata, target, context), {
    minReplicas,
    maxReplicas,
    currentReplicas,
    desiredReplicas,
    conditions: [condition],
    metrics: [],
    health: healthOfProblems(sorted),
    problems: sorted,
    lastScaleTime: null,
  });
  dto.machine = {
    derivedReady: ready,
    operatorReady: operator,
    findings: verdict.findings,
    target: verdict.target,
  };
  return dto;
}
