import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { Autoscaler } from '@/lib/api/autoscaler';
import { diagnoseDescribe, diagnoseObjects, findCredential, looksLikeDescribe, parseMetricLine, toV2Hpa } from '@/lib/diagnose';
import type { KubeObject } from '@/lib/k8s/types';
import { federatedAutoscalers, machineAutoscalers, OCP } from '@/lib/triage/__fixtures__/fleet';

const NOW = '2026-11-20T12:00:00Z';
const fixture = (name: string): string => readFileSync(path.join(__dirname, '__fixtures__', name), 'utf8');
const docs = (name: string): unknown[] => parseAllDocuments(fixture(name)).map((d) => d.toJS() as unknown);

/** What a verdict is: the same for every form of one object. */
function verdict(a: Autoscaler): unknown {
  return {
    name: a.name,
    namespace: a.namespace,
    health: a.health,
    problems: a.problems.map((p) => [p.code, p.severity]),
    conditions: a.conditions.map((c) => [c.type, c.status, c.reason, c.meaning]),
    replicas: [a.minReplicas, a.maxReplicas, a.currentReplicas, a.desiredReplicas],
    target: [a.target.kind, a.target.name],
    metrics: JSON.stringify(a.metrics.map((m) => ({ ...m })).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))),
  };
}

const v2 = diagnoseObjects(docs('hpa-v2.yaml'), NOW);
const expected = verdict(v2.items[0] as Autoscaler);

describe('kubectl get -o yaml in every served version reads as the v2 object does', () => {
  it('v2 is degraded/TooManyReplicas, nothing unread', () => {
    expect(v2.items).toHaveLength(1);
    expect(v2.items[0]).toMatchObject({ health: 'degraded', cluster: 'paste', currentReplicas: 10 });
    expect(v2.items[0]?.problems.map((p) => p.code)).toEqual(['TooManyReplicas']);
    expect(v2.unread).toEqual([]);
  });

  it.each(['hpa-v1.yaml', 'hpa-v2beta1.yaml', 'hpa-v2beta2.yaml'])('%s', (file) => {
    const r = diagnoseObjects(docs(file), NOW);
    expect(r.unread).toEqual([]);
    expect(verdict(r.items[0] as Autoscaler)).toEqual(expected);
  });

  it('v1: the metrics annotation comes before targetCPUUtilizationPercentage (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler)', () => {
    const { hpa } = toV2Hpa(docs('hpa-v1.yaml')[0] as KubeObject);
    expect(hpa.spec.metrics?.map((m) => m.type)).toEqual(['Pods', 'Resource']);
    expect(hpa.status?.conditions?.map((c) => c.reason)).toEqual(['ReadyForNewScale', 'ValidMetricFound', 'TooManyReplicas']);
    expect(hpa.metadata.annotations ?? {}).toEqual({});
  });

  it('v1 without annotations: cpu from the percentages; no metric at all is the cpu 80% default; no conditions is said, not guessed', () => {
    const bare = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'x', namespace: 'd' },
      spec: { maxReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: 'x' } },
      status: { currentReplicas: 1, desiredReplicas: 1 },
    };
    const { hpa } = toV2Hpa(bare);
    expect(hpa.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]);
    const r = diagnoseObjects([bare], NOW);
    expect(r.items[0]?.problems.map((p) => p.code)).toEqual(['ConditionsAbsent']);
  });

  it('a List of two versions gives two items', () => {
    const r = diagnoseObjects(docs('list.yaml'), NOW);
    expect(r.items.map((i) => i.name)).toEqual(['php-apache', 'web']);
    expect(r.items.map((i) => i.health)).toEqual(['degraded', 'degraded']);
  });

  it('several documents, an unrelated object named, a manifest without status not guessed', () => {
    const manifest = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'm' },
      spec: { maxReplicas: 2, scaleTargetRef: { kind: 'Deployment', name: 'm' } },
    };
    const r = diagnoseObjects([...docs('hpa-v2.yaml'), manifest, { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } }], NOW);
    expect(r.items.map((i) => [i.name, i.health, i.problems.map((p) => p.code)])).toEqual([
      ['php-apache', 'degraded', ['TooManyReplicas']],
      ['m', 'unknown', ['NotInPaste']],
    ]);
    expect(r.unread.join('\n')).toContain('has no status in this paste');
    expect(r.unread.join('\n')).toContain('not an autoscaler, so not diagnosed: Service s');
  });
});

describe('kubectl describe hpa text (describe.go layouts)', () => {
  it('detects describe output', () => {
    expect(looksLikeDescribe(fixture('describe-v2.txt'))).toBe(true);
    expect(looksLikeDescribe(fixture('hpa-v2.yaml'))).toBe(false);
  });

  it.each(['describe-v2.txt', 'describe-v2-pasted.txt'])('%s reads as the object does (but for what describe does not print)', (file) => {
    const r = diagnoseDescribe(fixture(file), NOW);
    expect(r.items).toHaveLength(1);
    expect(r.unread).toEqual([]);
    expect(verdict(r.items[0] as Autoscaler)).toEqual(expected);
  });

  it('joins a message a terminal wrapped mid-word', () => {
    const r = diagnoseDescribe(fixture('describe-v2-pasted.txt'), NOW);
    expect(r.items[0]?.conditions.find((c) => c.type === 'ScalingActive')?.message).toBe(
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    );
  });

  it('a paste that starts after Name and ends before Conditions: unknown, and says what is missing', () => {
    const r = diagnoseDescribe(fixture('describe-v2-truncated.txt'), NOW);
    expect(r.items[0]).toMatchObject({ health: 'unknown', name: '' });
    expect(r.items[0]?.problems.map((p) => p.code)).toEqual(['NotInPaste']);
    expect(r.unread).toContain('no conditions in this paste: the verdict needs the Conditions block');
    expect(r.unread.some((u) => u.startsWith('no Name line'))).toBe(true);
    expect(r.items[0]?.metrics).toHaveLength(2);
  });

  it('the v1 layout (old events table): cpu target and current read, conditions said to be missing', () => {
    const r = diagnoseDescribe(fixture('describe-v1.txt'), NOW);
    expect(r.items[0]).toMatchObject({ name: 'php-apache', health: 'unknown', maxReplicas: 10 });
    expect(r.items[0]?.metrics[0]).toMatchObject({ type: 'Resource' });
    expect(r.unread.join('\n')).toContain('autoscaling/v1 describe layout prints no conditions');
  });

  it.each([
    ['resource cpu on pods  (as a percentage of request):  <unknown> / 50%', 'Resource', false],
    ['resource memory on pods:  120Mi / 200Mi', 'Resource', true],
    ['resource cpu of container "app" on pods  (as a percentage of request):  40% (40m) / 60%', 'ContainerResource', true],
    ['"requests-per-second" on Ingress/main-route (target value):  2k / 10k', 'Object', true],
    ['"queue_messages_ready" (target average value):  30 / 30', 'External', true],
  ] as const)('metric line %s', (line, type, hasStatus) => {
    const parsed = parseMetricLine(line);
    expect(parsed?.spec.type).toBe(type);
    expect(parsed?.status !== null).toBe(hasStatus);
  });
});

describe('credentials are refused', () => {
  it.each([
    ['apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\ndata:\n  a: b', 'a Secret object'],
    ['apiVersion: v1\nkind: Config\nusers:\n- name: u', 'a kubeconfig (kind: Config)'],
    ['users:\n- name: u\n  user:\n    client-key-data: LS0t', 'kubeconfig credentials'],
    ['Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123', 'a bearer token'],
    ['token: eyJhbGciOiJSUzI1NiIsImtpZCI6IiJ9.eyJpc3MiOiJrdWJlcm5ldGVzIn0.c2lnbmF0dXJlc2lnbmF0dXJl', 'a JSON Web Token'],
  ])('%s', (text, what) => {
    expect(findCredential(text)).toContain(what);
  });

  it('leaves an HPA alone', () => {
    expect(findCredential(fixture('hpa-v1.yaml'))).toBeNull();
    expect(findCredential(fixture('describe-v2.txt'))).toBeNull();
  });
});

describe('the fleet fixtures pasted whole read as the fleet mappers read them', () => {
  const same = (a: Autoscaler): unknown => ({ ...(verdict(a) as object), kind: a.kind, federation: a.federation ?? null });

  it('an OpenShift List of MachineAutoscalers, MachineSets and a ClusterAutoscaler', () => {
    const r = diagnoseObjects(
      [JSON.parse(readFileSync(path.join(__dirname, '../triage/__fixtures__/ocp-prod-east.machine.json'), 'utf8'))],
      NOW,
    );
    const fleet = machineAutoscalers(OCP);
    expect(r.items.map(same)).toEqual(fleet.map(same));
    expect(r.unread).toEqual([]);
  });

  it('FederatedHPAs with their ResourceBindings, PropagationPolicies and Karmada Clusters', () => {
    const lists = ['karmada.fhpa.json', 'karmada.resourcebindings.json', 'karmada.propagationpolicies.json', 'karmada.clusters.json'].map(
      (f) => JSON.parse(readFileSync(path.join(__dirname, '../triage/__fixtures__', f), 'utf8')) as unknown,
    );
    const r = diagnoseObjects(lists, NOW);
    expect(r.items.map(same)).toEqual(federatedAutoscalers().map(same));
  });

  it('a MachineAutoscaler alone: no guess about its target or the ClusterAutoscaler, and the paste says what it lacks', () => {
    const list = JSON.parse(readFileSync(path.join(__dirname, '../triage/__fixtures__/ocp-prod-east.machine.json'), 'utf8')) as {
      items: KubeObject[];
    };
    const r = diagnoseObjects(
      list.items.filter((o) => o.kind === 'MachineAutoscaler'),
      NOW,
    );
    const codes = r.items.flatMap((i) => i.problems.map((p) => p.code));
    expect(codes).not.toContain('MachineAutoscalerTargetNotFound');
    expect(codes).not.toContain('ClusterAutoscalerMissing');
    expect(r.unread.join('\n')).toContain('no MachineSets in this paste');
    expect(r.unread.join('\n')).toContain('no ClusterAutoscaler in this paste');
  });
});
