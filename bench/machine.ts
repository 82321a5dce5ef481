/**
 * Times `assessMachineAutoscalers` on a large OpenShift fleet: 5,000 MachineAutoscalers and 10,000 MachineSets
 * (5,000 MAPI/CAPI mirror pairs) with mixed authority and a realistic share of findings. Objects are copies of
 * the kubectl-shaped fixtures in lib/machine/__fixtures__, so parsing cost includes managedFields and all.
 *
 *   npx tsx bench/machine.ts
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { CoreEvent } from '@/lib/k8s/types';
import {
  annotate,
  awsMachineTemplate,
  capiMirror,
  clusterAutoscaler,
  CONTEXT,
  machineAutoscaler,
  mapiMachineSet,
  targetRef,
} from '@/lib/machine/__fixtures__/builders';
import { assessMachineAutoscalers } from '@/lib/machine';
import type {
  AssessMachineAutoscalersInput,
  ClusterAPIMachineSetObject,
  MachineAPIMachineSetObject,
  MachineAutoscalerObject,
} from '@/lib/machine';

const PAIRS = 5_000;
const WARMUP = 3;
const ITERATIONS = 30;
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

const CAPI_MIN = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
const CAPI_MAX = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
const MAPI_MAX = 'machine.openshift.io/cluster-api-autoscaler-node-group-max-size';
const OWNER = 'autoscaling.openshift.io/machineautoscaler';

type Authority = 'MachineAPI' | 'ClusterAPI' | 'Migrating';

/** 60 % MachineAPI, 30 % ClusterAPI, 10 % Migrating. */
function authorityOf(i: number): Authority {
  const bucket = i % 10;
  return bucket < 6 ? 'MachineAPI' : bucket < 9 ? 'ClusterAPI' : 'Migrating';
}

function uid(i: number, salt: number): string {
  const hex = (i * 7919 + salt * 104729).toString(16).padStart(12, '0').slice(-12);
  return `${salt.toString(16).padStart(8, '0')}-4b1e-4c2d-9a3f-${hex}`;
}

export function generateMachineFleet(): AssessMachineAutoscalersInput {
  const machineAPI: MachineAPIMachineSetObject[] = [];
  const clusterAPI: ClusterAPIMachineSetObject[] = [];
  const machineAutoscalers: MachineAutoscalerObject[] = [];
  const events: CoreEvent[] = [];
  const templates = ZONES.map((zone) =>
    awsMachineTemplate((template) => {
      template.metadata.name = `bench-7k2xq-worker-${zone}`;
      template.metadata.uid = uid(ZONES.indexOf(zone), 9);
    }),
  );

  for (let i = 0; i < PAIRS; i++) {
    const zone = ZONES[i % ZONES.length] ?? 'us-east-1a';
    const name = `bench-7k2xq-worker-${zone}-${i}`;
    const maName = `worker-${i}`;
    const authority = authorityOf(i);
    const owner = `openshift-machine-api/${maName}`;

    machineAPI.push(
      mapiMachineSet((ms) => {
        ms.metadata.name = name;
        ms.metadata.uid = uid(i, 1);
        annotate(ms, { [OWNER]: owner });
        if (i % 40 === 3) annotate(ms, { [MAPI_MAX]: '9' });
        if (i % 30 === 5) {
          ms.spec = { ...ms.spec, replicas: 0 };
          annotate(ms, { 'machine.openshift.io/vCPU': null, 'machine.openshift.io/memoryMb': null });
        }
        const requested = authority === 'MachineAPI' ? 'MachineAPI' : 'ClusterAPI';
        ms.spec = { ...ms.spec, authoritativeAPI: requested };
        ms.status = { ...ms.status, authoritativeAPI: authority };
        if (i % 70 === 11) {
          ms.status.conditions = [
            {
              type: 'Synchronized',
              status: 'False',
              reason: 'FailedToConvertMAPIMachineSetToCAPI',
              lastTransitionTime: '2026-08-04T09:12:44Z',
            },
          ];
        }
      }),
    );
    clusterAPI.push(
      capiMirror((ms) => {
        ms.metadata.name = name;
        ms.metadata.uid = uid(i, 2);
        if (ms.spec?.template?.spec?.infrastructureRef) ms.spec.template.spec.infrastructureRef.name = `bench-7k2xq-worker-${zone}`;
        if (authority === 'ClusterAPI') {
          annotate(ms, { 'cluster.x-k8s.io/paused': i % 45 === 8 ? '' : null, [CAPI_MIN]: '1', [CAPI_MAX]: '6', [OWNER]: owner });
        }
      }),
    );

    machineAutoscalers.push(
      machineAutoscaler((ma) => {
        ma.metadata.name = maName;
        ma.metadata.uid = uid(i, 3);
        ma.metadata.creationTimestamp = new Date(Date.UTC(2026, 2, 10, 14, 0, i)).toISOString().replace('.000', '');
        // Mostly the authoritative copy; every 50th points at the other one.
        const capiRef = (authority === 'ClusterAPI') !== (i % 50 === 0);
        targetRef(ma, capiRef ? 'cluster.x-k8s.io/v1beta2' : 'machine.openshift.io/v1beta1', name);
        // Every 100th duplicates its predecessor's set (same group, or across the mirror pair).
        if (i % 100 === 1)
          targetRef(
            ma,
            i % 200 === 1 ? 'cluster.x-k8s.io/v1beta2' : 'machine.openshift.io/v1beta1',
            machineAPI[i - 1]?.metadata.name ?? name,
          );
        if (i % 250 === 7) targetRef(ma, 'machine.openshift.io/v1beta1', `${name}-typo`);
        if (i % 500 === 9) ma.metadata.namespace = 'default';
      }),
    );

    events.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${maName}.18${i.toString(16).padStart(14, '0')}`, namespace: 'openshift-machine-api', uid: uid(i, 4) },
      involvedObject: {
        apiVersion: 'autoscaling.openshift.io/v1beta1',
        kind: 'MachineAutoscaler',
        name: maName,
        namespace: 'openshift-machine-api',
        uid: uid(i, 3),
      },
      reason: 'SuccessfulUpdate',
      message: `Updated MachineAutoscaler target: openshift-machine-api/${name}`,
      type: 'Normal',
      count: 1 + (i % 17),
      firstTimestamp: '2026-03-10T14:02:12Z',
      lastTimestamp: '2026-04-18T22:41:07Z',
      source: { component: 'machine_autoscaler_controller' },
    });
  }

  return {
    machineAutoscalers,
    machineSets: { machineAPI, clusterAPI },
    clusterAutoscalers: [clusterAutoscaler()],
    infrastructureTemplates: templates,
    events,
    context: CONTEXT,
  };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

export async function runMachineBench(): Promise<{ medianMs: number; p99Ms: number }> {
  const input = generateMachineFleet();
  for (let i = 0; i < WARMUP; i++) assessMachineAutoscalers(input);
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    assessMachineAutoscalers(input);
    samples.push(performance.now() - start);
    // Yield between runs so a caller's event loop (bench/triage.ts) is not starved.
    await new Promise((resolve) => setImmediate(resolve));
  }
  samples.sort((a, b) => a - b);
  return { medianMs: percentile(samples, 50), p99Ms: percentile(samples, 99) };
}

async function main(): Promise<void> {
  const input = generateMachineFleet();
  const verdicts = assessMachineAutoscalers(input);
  const byStatus = new Map<string, number>();
  const byCode = new Map<string, number>();
  for (const verdict of verdicts) {
    byStatus.set(verdict.derivedReady.status, (byStatus.get(verdict.derivedReady.status) ?? 0) + 1);
    for (const item of verdict.findings) byCode.set(item.code, (byCode.get(item.code) ?? 0) + 1);
  }
  const sets = input.machineSets.machineAPI.length + input.machineSets.clusterAPI.length;
  console.log(`machine: ${verdicts.length} MachineAutoscalers, ${sets} MachineSets`);
  console.log(`  Ready: ${[...byStatus].map(([status, count]) => `${status}=${count}`).join(' ')}`);
  console.log(
    `  findings: ${[...byCode]
      .sort()
      .map(([code, count]) => `${code}=${count}`)
      .join(' ')}`,
  );
  const { medianMs, p99Ms } = await runMachineBench();
  console.log(`  assessMachineAutoscalers: median ${medianMs.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms (${ITERATIONS} runs)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
