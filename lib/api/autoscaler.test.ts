import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AutoscalerIdSchema,
  AutoscalerKindSchema,
  AutoscalerSchema,
  parseAutoscalerId,
  ProblemGroupSchema,
  toAutoscalerId,
} from '@/lib/api/autoscaler';
import { fleet, NOW } from '@/lib/triage/__fixtures__/fleet';
import { groupProblems } from '@/lib/triage/group-problems';

// DNS-1123 labels: what namespaces and names may be.
const dnsLabel = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/);
// Kubeconfig context names: anything, including `/`, `:`, `%` and non-ASCII.
const clusterName = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  fc.constantFrom(
    'arn:aws:eks:us-east-1:123456789012:cluster/prod-us',
    'karmada/member1',
    'gke_acme_europe-west1_prod',
    '100%-prod',
    'prod:ü/ß',
    'ns/with%2Fencoded',
  ),
);

describe('toAutoscalerId / parseAutoscalerId', () => {
  it.each([
    ['prod-eu-west-1', 'HorizontalPodAutoscaler', 'shop', 'web', 'prod-eu-west-1/HorizontalPodAutoscaler/shop/web'],
    [
      'arn:aws:eks:us-east-1:123456789012:cluster/prod-us',
      'HorizontalPodAutoscaler',
      'billing',
      'exporter',
      'arn%3Aaws%3Aeks%3Aus-east-1%3A123456789012%3Acluster%2Fprod-us/HorizontalPodAutoscaler/billing/exporter',
    ],
    ['karmada/member1', 'FederatedHPA', 'shop', 'nginx', 'karmada%2Fmember1/FederatedHPA/shop/nginx'],
    [
      'ocp-prod-east',
      'MachineAutoscaler',
      'openshift-machine-api',
      'worker-us-east-1a',
      'ocp-prod-east/MachineAutoscaler/openshift-machine-api/worker-us-east-1a',
    ],
  ] as const)('%s %s %s/%s → %s', (cluster, kind, namespace, name, id) => {
    expect(toAutoscalerId(cluster, kind, namespace, name)).toBe(id);
    expect(parseAutoscalerId(id)).toEqual({ cluster, kind, namespace, name });
  });

  it('round-trips any cluster name (fast-check)', () => {
    fc.assert(
      fc.property(clusterName, fc.constantFrom(...AutoscalerKindSchema.options), dnsLabel, dnsLabel, (cluster, kind, namespace, name) => {
        const id = toAutoscalerId(cluster, kind, namespace, name);
        expect(id.split('/')).toHaveLength(4);
        expect(parseAutoscalerId(id)).toEqual({ cluster, kind, namespace, name });
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['too few parts', 'prod/HorizontalPodAutoscaler/shop'],
    ['too many parts (an unencoded / in the cluster)', 'karmada/member1/FederatedHPA/shop/nginx'],
    ['unknown kind', 'prod/Deployment/shop/web'],
    ['empty namespace', 'prod/HorizontalPodAutoscaler//web'],
    ['empty cluster', '/HorizontalPodAutoscaler/shop/web'],
    ['malformed percent-encoding', 'prod%E0%A4%A/HorizontalPodAutoscaler/shop/web'],
    ['non-canonical encoding (lower-case hex)', 'karmada%2fmember1/FederatedHPA/shop/nginx'],
    ['a character encodeURIComponent would have encoded', 'prod:eu/HorizontalPodAutoscaler/shop/web'],
  ])('rejects %s', (_why, id) => {
    expect(parseAutoscalerId(id)).toBeNull();
    expect(AutoscalerIdSchema.safeParse(id).success).toBe(false);
  });
});

describe('schemas accept what lib/triage produces', () => {
  const autoscalers = fleet();

  it('every fixture autoscaler parses and survives a JSON round trip unchanged', () => {
    for (const a of autoscalers) {
      const wire = JSON.parse(JSON.stringify(a)) as unknown;
      expect(AutoscalerSchema.parse(wire)).toEqual(wire);
    }
  });

  it('every problem group parses', () => {
    for (const g of groupProblems(autoscalers, NOW)) expect(ProblemGroupSchema.parse(g)).toEqual(g);
  });

  it('the DTO is small: no managedFields, no annotations, under 4 KiB per autoscaler', () => {
    for (const a of autoscalers) {
      const json = JSON.stringify(a);
      expect(json).not.toContain('managedFields');
      expect(json).not.toContain('last-applied-configuration');
      expect(json.length).toBeLessThan(4096);
    }
  });
});
