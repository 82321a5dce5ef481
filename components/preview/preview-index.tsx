'use client';

import { useQuery } from '@tanstack/react-query';
import { Link } from '../ui/link';
import type { Autoscaler } from '@/lib/api';
import { previewHref } from '../api/paths';
import { autoscalerListQuery } from '../queries/keys';
import { HealthBadge } from '../ui/health';
import { PartialFailureBanner } from '../ui/partial-failure-banner';
import { QueryError, Skeleton } from '../ui/query-state';
import { federationPresets, formFromPreset } from './federation-presets';
import { federationFormParams } from './federation-state';
import styles from './preview.module.css';
import { isPinnedAtBound } from '@/lib/triage/pinned-at-bound';

function presetHref(key: string): string {
  const preset = federationPresets.find((p) => p.key === key);
  if (!preset) return '/preview/federation';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(federationFormParams(formFromPreset(preset)))) if (v) params.set(k, v);
  return `/preview/federation?${params.toString()}`;
}

function LiveList({
  items,
  empty,
  detail,
}: {
  items: readonly Autoscaler[];
  empty: string;
  detail: (a: Autoscaler) => string;
}): React.JSX.Element {
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className={styles.liveList}>
      {items.map((a) => (
        <li key={a.id}>
          <HealthBadge health={a.health} compact />
          <Link href={previewHref(a.kind === 'FederatedHPA' ? 'FederatedHPA' : 'HorizontalPodAutoscaler', a.id)} className="mono">
            {a.namespace}/{a.name}
          </Link>
          <span className="chip">{a.cluster}</span>
          <span className="muted">{detail(a)}</span>
        </li>
      ))}
    </ul>
  );
}

/** `/preview`: the two previews, with live objects worth starting from. */
export function PreviewIndex(): React.JSX.Element {
  const hpas = useQuery(autoscalerListQuery({ kind: 'HorizontalPodAutoscaler', limit: 500, sort: 'health' }));
  const fhpas = useQuery(autoscalerListQuery({ kind: 'FederatedHPA', limit: 100, sort: 'name' }));
  const pinned = (hpas.data?.items ?? []).filter(isPinnedAtBound).slice(0, 8);
  const clusters = hpas.data?.clusters.length ?? 0;
  return (
    <>
      {hpas.data ? <PartialFailureBanner clusters={hpas.data.clusters} /> : null}
      <div className={styles.indexGrid}>
        <section className={`card ${styles.indexCard}`} aria-labelledby="hpa-preview-title" data-testid="index-hpa">
          <h2 id="hpa-preview-title">
            <Link href="/preview/hpa">HPA preview</Link>
          </h2>
          <p>
            Start from a live HorizontalPodAutoscaler and change its minReplicas/maxReplicas, metric targets, behavior or the observed load:
            see the controller’s desired replicas, conditions and step-by-step explanation before and after, then play a load curve over
            many syncs.
          </p>
          <h3 className={styles.sectionTitle}>Pinned at a bound now</h3>
          {hpas.isPending ? (
            <Skeleton rows={3} />
          ) : hpas.error ? (
            <QueryError error={hpas.error} retry={() => void hpas.refetch()} />
          ) : (
            <LiveList
              items={pinned}
              empty={`No HPA is limited by its bounds in ${clusters} clusters — any HPA can still be previewed.`}
              detail={(a) =>
                `${a.conditions.find((c) => c.type === 'ScalingLimited')?.reason ?? ''} · ${a.minReplicas ?? 1}–${a.maxReplicas ?? '?'}`
              }
            />
          )}
        </section>
        <section className={`card ${styles.indexCard}`} aria-labelledby="fed-preview-title" data-testid="index-federation">
          <h2 id="fed-preview-title">
            <Link href="/preview/federation">Federation preview</Link>
          </h2>
          <p>
            See how a FederatedHPA’s replicas split across member clusters under karmada-scheduler’s strategies (what Karmada ships), or how
            its min/max bounds would split under the seed proposal’s five policies (which never shipped) — with scale-up, prioritized
            scale-down, optimization and scale to/from zero.
          </p>
          <h3 className={styles.sectionTitle}>Live FederatedHPAs</h3>
          {fhpas.isPending ? (
            <Skeleton rows={3} />
          ) : fhpas.error ? (
            <QueryError error={fhpas.error} retry={() => void fhpas.refetch()} />
          ) : (
            <LiveList
              items={fhpas.data.items}
              empty={`No FederatedHPA in ${fhpas.data.clusters.length} clusters: no Karmada control plane is configured. The seed’s examples still work.`}
              detail={(a) => {
                const n = a.federation?.members.length ?? 0;
                return `${a.federation?.strategy ?? 'no placement'} · ${n} ${n === 1 ? 'member' : 'members'}`;
              }}
            />
          )}
          <h3 className={styles.sectionTitle} style={{ marginTop: 12 }}>
            The seed proposal’s worked examples
          </h3>
          <ul>
            {federationPresets.slice(0, 5).map((p) => (
              <li key={p.key}>
                <Link href={presetHref(p.key)}>{p.label}</Link>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </>
  );
}
