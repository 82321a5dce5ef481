import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ClusterRole, ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

/**
 * deploy/ rendered offline with `kubectl kustomize` (kustomize v5, which kubectl ≥ 1.27 carries), every object
 * validated against the Kubernetes OpenAPI schemas (kubernetes-models), compared with its golden file
 * (`UPDATE_GOLDEN=1 npx vitest run test/deploy.test.ts` rewrites them after a deliberate change), and held to
 * the policy: non-root, read-only root filesystem, writable mounts only for data/.next/cache//tmp, probes on
 * healthz/readyz, RBAC verbs only get/list/watch.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const deploy = path.join(root, 'deploy');
const golden = path.join(deploy, '__golden__');

/** Every kustomization an operator applies, by the name of its golden file. */
const targets = {
  'in-cluster': 'overlays/in-cluster',
  'many-clusters': 'overlays/many-clusters',
  oidc: 'overlays/oidc',
  postgres: 'overlays/postgres',
  'watched-cluster': 'watched-cluster',
} as const;
type Target = keyof typeof targets;
/**
 * The overlays allowed `create` on `subjectaccessreviews` (one that mirrors each cluster's RBAC for its
 * viewers would need it); none exists yet, so every rule everywhere is get/list/watch only.
 */
const mirrorsClusterRbac = new Set<Target>();

interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

const models: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ServiceAccount': ServiceAccount,
  'v1/Secret': Secret,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding,
};

const kustomizeVersion = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).stdout;

function render(dir: string): string {
  const result = spawnSync('kubectl', ['kustomize', path.join(deploy, dir)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${result.stderr}`);
  return result.stdout;
}

function objectsOf(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

const rendered = Object.fromEntries(Object.entries(targets).map(([name, dir]) => [name, render(dir)])) as Record<Target, string>;
const objects = (name: Target): KubeObject[] => objectsOf(rendered[name]);
const docsRbac = objectsOf(readFileSync(path.join(root, 'docs', 'rbac.yaml'), 'utf8'));

interface Container {
  name: string;
  ports?: { name: string; containerPort: number }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
  }[];
  securityContext?: Record<string, unknown>;
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  securityContext?: Record<string, unknown>;
  containers: Container[];
  volumes?: {
    name: string;
    secret?: { secretName: string };
    configMap?: { name: string };
    persistentVolumeClaim?: { claimName: string };
    emptyDir?: unknown;
  }[];
}

function deploymentOf(name: Target): { object: KubeObject; pod: PodSpec; labels: Record<string, string>; container: Container } {
  const object = objects(name).find((o) => o.kind === 'Deployment');
  if (!object) throw new Error(`${name} has no Deployment`);
  const template = (object.spec as { template: { metadata: { labels: Record<string, string> }; spec: PodSpec } }).template;
  const container = template.spec.containers[0];
  if (!container) throw new Error(`${name}'s Deployment has no container`);
  return { object, pod: template.spec, labels: template.metadata.labels, container };
}

const env = (c: Container, name: string): string | undefined => c.env?.find((e) => e.name === name)?.value;
const workloads: Target[] = ['in-cluster', 'many-clusters', 'oidc', 'postgres'];

describe('deploy/ renders with kubectl kustomize', () => {
  it('uses a kubectl with kustomize v5', () => {
    expect(kustomizeVersion, 'kubectl ≥ 1.27 (kustomize v5) is needed; Debian 12’s kubernetes-client 1.20 is too old').toMatch(
      /Kustomize Version: v5\./,
    );
  });

  it.each(Object.keys(targets) as Target[])('%s: every object is valid against the Kubernetes schemas', (name) => {
    const list = objects(name);
    expect(list.length).toBeGreaterThan(0);
    for (const o of list) {
      const Model = models[`${o.apiVersion}/${o.kind}`];
      expect(Model, `no schema for ${o.apiVersion} ${o.kind}`).toBeDefined();
      if (!Model) continue;
      expect(() => new Model(o as never).validate(), `${o.kind} ${o.metadata.name}`).not.toThrow();
      if (o.kind !== 'Namespace' && o.kind !== 'ClusterRole' && o.kind !== 'ClusterRoleBinding')
        expect(o.metadata.namespace, `${o.kind} ${o.metadata.name}`).toBe('autoscope');
    }
  });

  it.each(Object.keys(targets) as Target[])('%s: matches its golden file', (name) => {
    const file = path.join(golden, `${name}.yaml`);
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(golden, { recursive: true });
      writeFileSync(file, rendered[name]);
    }
    expect(existsSync(file), `${file} is missing: UPDATE_GOLDEN=1 writes it`).toBe(true);
    expect(rendered[name]).toBe(readFileSync(file, 'utf8'));
  });
});

describe('the policy every overlay keeps', () => {
  const dockerUser = /^USER\s+(\d+)/m.exec(readFileSync(path.join(root, 'Dockerfile'), 'utf8'))?.[1];

  it.each(workloads)(
    '%s: non-root as the image’s user, read-only root filesystem, no privilege, all capabilities dropped, RuntimeDefault seccomp',
    (name) => {
      const { pod, container } = deploymentOf(name);
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: Number(dockerUser),
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(container.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        runAsNonRoot: true,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
    },
  );

  it.each(workloads)(
    '%s: writable mounts only for the data dir, .next/cache and /tmp; history on the PVC, or in PostgreSQL from a Secret',
    (name) => {
      const { object, pod, container } = deploymentOf(name);
      const writable = (container.volumeMounts ?? []).filter((m) => !m.readOnly).map((m) => m.mountPath);
      expect(writable.sort()).toEqual(['/app/.next/cache', '/data', '/tmp']);
      expect(env(container, 'AUTOSCOPE_DATA_DIR')).toBe('/data');
      const data = container.volumeMounts?.find((m) => m.mountPath === '/data');
      const volume = pod.volumes?.find((v) => v.name === data?.name);
      const database = container.env?.find((e) => e.name === 'AUTOSCOPE_DATABASE_URL');
      const spec = object.spec as { replicas: number; strategy: { type: string } };
      if (database) {
        // The URL carries a password: from a Secret, never a literal; no claim, several replicas, rolling updates.
        expect(database.value).toBeUndefined();
        expect(database.valueFrom?.secretKeyRef?.name).toBeTruthy();
        expect(volume?.emptyDir).toBeDefined();
        expect(objects(name).some((o) => o.kind === 'PersistentVolumeClaim')).toBe(false);
        expect(spec.replicas).toBeGreaterThan(1);
        expect(spec.strategy.type).toBe('RollingUpdate');
        expect(container.env?.find((e) => e.name === 'AUTOSCOPE_REPLICA_ID')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.name');
      } else {
        // One replica owns the SQLite file on a ReadWriteOnce claim; Recreate never runs two at once.
        const claim = volume?.persistentVolumeClaim?.claimName;
        expect(objects(name).some((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.name === claim)).toBe(true);
        expect(spec.replicas).toBe(1);
        expect(spec.strategy.type).toBe('Recreate');
      }
    },
  );

  it.each(workloads)(
    '%s: liveness on /api/healthz, readiness on /api/readyz, memory requested and limited, metrics on their own port',
    (name) => {
      const { container } = deploymentOf(name);
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/api/healthz', port: 'http' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/api/readyz', port: 'http' });
      expect(container.resources?.requests?.memory).toMatch(/^\d+[MG]i$/);
      expect(container.resources?.limits?.memory).toMatch(/^\d+[MG]i$/);
      const ports = Object.fromEntries((container.ports ?? []).map((p) => [p.name, p.containerPort]));
      expect(ports.http).toBe(3000);
      expect(ports.metrics).toBe(Number(env(container, 'AUTOSCOPE_METRICS_PORT')));
      expect(ports.metrics).not.toBe(ports.http);
      expect(env(container, 'AUTOSCOPE_METRICS_HOST')).toBe('0.0.0.0');
    },
  );

  it.each(workloads)('%s: the Service and the NetworkPolicy select the pod; metrics reachable only from labelled namespaces', (name) => {
    const { labels } = deploymentOf(name);
    const service = objects(name).find((o) => o.kind === 'Service');
    const selector = (service?.spec as { selector: Record<string, string> }).selector;
    expect(Object.entries(selector).every(([k, v]) => labels[k] === v)).toBe(true);
    const policy = objects(name).find((o) => o.kind === 'NetworkPolicy');
    const spec = policy?.spec as {
      podSelector: { matchLabels: Record<string, string> };
      policyTypes: string[];
      ingress: { from?: unknown[]; ports: { port: string }[] }[];
    };
    expect(Object.entries(spec.podSelector.matchLabels).every(([k, v]) => labels[k] === v)).toBe(true);
    expect(spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const metricsRule = spec.ingress.find((r) => r.ports.some((p) => p.port === 'metrics'));
    expect(metricsRule?.from).toEqual([{ namespaceSelector: { matchLabels: { 'autoscope.io/scrape': 'true' } } }]);
  });

  it.each(Object.keys(targets) as Target[])('%s: RBAC grants get, list and watch only', (name) => {
    for (const role of objects(name).filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role')) {
      for (const rule of role.rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[]) {
        const sar = rule.apiGroups.includes('authorization.k8s.io') && rule.resources.includes('subjectaccessreviews');
        if (sar && mirrorsClusterRbac.has(name)) expect(rule.verbs).toEqual(['create']);
        else
          for (const verb of rule.verbs)
            expect(['get', 'list', 'watch'], `${role.metadata.name}: ${verb} on ${rule.resources.join(',')}`).toContain(verb);
      }
    }
  });

  it('deploy/rbac is docs/rbac.yaml, and in-cluster binds it to the pod’s ServiceAccount, which alone mounts a token', () => {
    const rbac = objectsOf(render('rbac'));
    expect(rbac).toEqual(docsRbac);
    const inCluster = deploymentOf('in-cluster');
    const binding = objects('in-cluster').find((o) => o.kind === 'ClusterRoleBinding');
    expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name: inCluster.pod.serviceAccountName, namespace: 'autoscope' }]);
    expect(inCluster.pod.automountServiceAccountToken).toBe(true);
    expect(deploymentOf('many-clusters').pod.automountServiceAccountToken).toBe(false);
  });

  it('many-clusters: no role in the home cluster; the kubeconfig comes from a Secret, mounted read-only', () => {
    const list = objects('many-clusters');
    expect(list.filter((o) => o.kind.includes('Role')).map((o) => o.kind)).toEqual([]);
    const { pod, container } = deploymentOf('many-clusters');
    const kubeconfig = env(container, 'KUBECONFIG') ?? '';
    const mount = container.volumeMounts?.find((m) => kubeconfig.startsWith(`${m.mountPath}/`));
    expect(mount?.readOnly).toBe(true);
    expect(pod.volumes?.find((v) => v.name === mount?.name)?.secret?.secretName).toBe('autoscope-kubeconfig');
  });

  it('watched-cluster: the read-only role and a token for its ServiceAccount, nothing else', () => {
    const list = objects('watched-cluster');
    expect(list.map((o) => o.kind).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'Namespace', 'Secret', 'ServiceAccount']);
    const token = list.find((o) => o.kind === 'Secret');
    expect(token?.type).toBe('kubernetes.io/service-account-token');
    expect(token?.metadata).toMatchObject({ annotations: { 'kubernetes.io/service-account.name': 'autoscope-reader' } });
  });

  it('without oidc the pod says it has no sign-in; oidc signs in with a secret file and a policy from mounted volumes', () => {
    for (const name of ['in-cluster', 'many-clusters'] as const) expect(env(deploymentOf(name).container, 'AUTOSCOPE_AUTH')).toBe('none');
    const { pod, container } = deploymentOf('oidc');
    expect(env(container, 'AUTOSCOPE_AUTH')).toBe('oidc');
    for (const variable of ['AUTOSCOPE_OIDC_ISSUER', 'AUTOSCOPE_OIDC_REDIRECT_URL'])
      expect(env(container, variable)).toMatch(/^https:\/\//);
    const mounted = (file: string | undefined): PodSpec['volumes'] extends (infer V)[] | undefined ? V | undefined : never => {
      const mount = container.volumeMounts?.find((m) => file?.startsWith(`${m.mountPath}/`));
      expect(mount?.readOnly).toBe(true);
      return pod.volumes?.find((v) => v.name === mount?.name);
    };
    expect(mounted(env(container, 'AUTOSCOPE_OIDC_CLIENT_SECRET_FILE'))?.secret?.secretName).toBe('autoscope-oidc');
    const policy = mounted(env(container, 'AUTOSCOPE_POLICY_FILE'))?.configMap?.name;
    expect(objects('oidc').some((o) => o.kind === 'ConfigMap' && o.metadata.name === policy)).toBe(true);
    const ingress = objects('oidc').find((o) => o.kind === 'Ingress');
    const host = (ingress?.spec as { rules: { host: string }[] }).rules[0]?.host;
    expect(env(container, 'AUTOSCOPE_OIDC_REDIRECT_URL')).toBe(`https://${host}/auth/callback`);
  });
});
