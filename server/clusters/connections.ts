import 'server-only';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from './kube-client';

export interface ClusterConnection {
  /** The context name; a Karmada member is `<control-plane>/<member>`. */
  name: string;
  client: KubeClient;
  /** Karmada member: the control plane it is reached through. */
  parent: string | null;
}

/** One KubeConfig per cluster: client-node's Watch always uses `getCurrentCluster()`. */
function singleContext(all: KubeConfig, contextName: string): KubeConfig | null {
  const context = all.getContextObject(contextName);
  if (!context) return null;
  const cluster = all.getCluster(context.cluster);
  const user = all.getUser(context.user);
  if (!cluster) return null;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: user ? [user] : [],
    contexts: [{ ...context, name: contextName }],
    currentContext: contextName,
  });
  return kc;
}

export interface ConnectionSource {
  /** What the configuration was read from, for the log and the "no cluster" page (paths only, never content). */
  description: string;
  connections: ClusterConnection[];
}

/**
 * Reads clusters the way kubectl does: `KUBECONFIG` (several files joined by the path delimiter),
 * else `~/.kube/config`, else in-cluster credentials. Every context becomes a cluster unless
 * `AUTOSCOPE_CONTEXTS` (comma-separated) names some.
 */
export function loadConnections(env: Readonly<Record<string, string | undefined>> = process.env): ConnectionSource {
  const wanted = (env.AUTOSCOPE_CONTEXTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const defaultFile = path.join(os.homedir(), '.kube', 'config');
  if (env.KUBECONFIG || existsSync(defaultFile)) {
    const all = new KubeConfig();
    if (env.KUBECONFIG) {
      const files = env.KUBECONFIG.split(path.delimiter).filter((f) => f && existsSync(f));
      if (files.length === 0) return { description: `KUBECONFIG=${env.KUBECONFIG} (no such file)`, connections: [] };
      all.loadFromFile(files[0] as string);
      for (const file of files.slice(1)) {
        const more = new KubeConfig();
        more.loadFromFile(file);
        all.mergeConfig(more);
      }
    } else {
      all.loadFromFile(defaultFile);
    }
    const names = all
      .getContexts()
      .map((c) => c.name)
      .filter((n) => wanted.length === 0 || wanted.includes(n));
    const connections = names.flatMap((name) => {
      const kc = singleContext(all, name);
      return kc ? [{ name, client: new KubeClient(name, kc), parent: null }] : [];
    });
    return { description: env.KUBECONFIG ? `KUBECONFIG=${env.KUBECONFIG}` : defaultFile, connections };
  }
  if (env.KUBERNETES_SERVICE_HOST) {
    const kc = new KubeConfig();
    kc.loadFromCluster();
    return {
      description: 'in-cluster service account',
      connections: [{ name: 'in-cluster', client: new KubeClient('in-cluster', kc), parent: null }],
    };
  }
  return { description: 'no kubeconfig', connections: [] };
}

/**
 * A Karmada member reached through its control plane's aggregated proxy
 * (`/apis/cluster.karmada.io/v1alpha1/clusters/{member}/proxy/…`), with the control plane's credentials:
 * the proxy impersonates Autoscope's identity in the member, so the member's RBAC applies.
 */
export function memberConnection(controlPlane: ClusterConnection, member: string): ClusterConnection {
  const base = controlPlane.client.kubeConfig;
  const cluster = base.getCurrentCluster();
  const user = base.getCurrentUser();
  const name = `${controlPlane.name}/${member}`;
  const kc = new KubeConfig();
  if (cluster) {
    kc.loadFromOptions({
      clusters: [
        {
          ...cluster,
          name,
          server: `${cluster.server.replace(/\/+$/, '')}/apis/cluster.karmada.io/v1alpha1/clusters/${encodeURIComponent(member)}/proxy`,
        },
      ],
      users: user ? [user] : [],
      contexts: [{ name, cluster: name, user: user?.name ?? '' }],
      currentContext: name,
    });
  }
  return { name, client: new KubeClient(name, kc), parent: controlPlane.name };
}
