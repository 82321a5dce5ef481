'use client';

import { useQuery } from '@tanstack/react-query';
import { NoClusters } from '../no-clusters';
import { clustersQuery } from '../queries/keys';
import { PartialFailureBanner } from '../ui/partial-failure-banner';
import { QueryError, Skeleton } from '../ui/query-state';
import { ClusterTiles } from './cluster-tiles';
import { FleetTotals } from './fleet-totals';
import { HealthByClusterChart } from './health-by-cluster-chart';
import { TopProblems } from './top-problems';
import { TransitionsFeed } from './transitions-feed';
import styles from './overview.module.css';

/** The fleet at a glance: what is broken and why, health by cluster, each cluster's tile, the latest changes. */
export function OverviewView(): React.JSX.Element {
  const clusters = useQuery(clustersQuery());
  if (clusters.isPending) return <Skeleton rows={8} height={28} />;
  if (clusters.error) return <QueryError error={clusters.error} retry={() => void clusters.refetch()} />;
  const list = clusters.data.clusters;
  if (list.length === 0) return <NoClusters />;
  return (
    <>
      <PartialFailureBanner clusters={list} />
      <FleetTotals clusters={list} generatedAt={clusters.data.generatedAt} />
      <div className={styles.columns}>
        <section className="card" aria-labelledby="top-problems-title">
          <h2 id="top-problems-title" className={styles.sectionTitle}>
            Top problems
          </h2>
          <TopProblems />
        </section>
        <section className="card" aria-labelledby="health-by-cluster-title">
          <h2 id="health-by-cluster-title" className={styles.sectionTitle}>
            Health by cluster
          </h2>
          <HealthByClusterChart clusters={list} />
        </section>
      </div>
      <section aria-labelledby="clusters-title" className={styles.section}>
        <h2 id="clusters-title" className={styles.sectionTitle}>
          Clusters
        </h2>
        <ClusterTiles clusters={list} />
      </section>
      <section className={`card ${styles.section}`} aria-labelledby="transitions-title">
        <h2 id="transitions-title" className={styles.sectionTitle}>
          Latest condition transitions
        </h2>
        <TransitionsFeed />
      </section>
    </>
  );
}
