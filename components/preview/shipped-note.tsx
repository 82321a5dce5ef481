import type { SeedPolicy } from '@/lib/api';
import type { FederationTab, Model } from './federation-state';
import styles from './preview.module.css';

/** What Karmada shipped instead of each seed policy (docs/engines/federation.md §2.6). */
const shippedInstead: Record<SeedPolicy, string> = {
  Duplicated:
    'PropagationPolicy replicaSchedulingType: Duplicated — every member cluster runs the template count, so the FederatedHPA’s min/max are effectively per cluster.',
  StaticWeighted:
    'replicaSchedulingType: Divided with replicaDivisionPreference: Weighted and weightPreference.staticWeightList — karmada-scheduler splits the replicas (not HPA bounds) by weight, ignoring capacity.',
  DynamicWeighted:
    'Divided + Weighted with weightPreference.dynamicWeight: AvailableReplicas — the scheduler splits the replicas by each cluster’s estimated available replicas, and refuses when they do not fit.',
  Aggregated:
    'Divided with replicaDivisionPreference: Aggregated — as few clusters as possible (the shortest prefix whose available replicas cover the target), split proportionally within them.',
  Prioritized:
    'No equivalent. The closest is clusterAffinities[].overflowAffinities (v1.18+): fill the primary cluster group up to its available replicas, then overflow to the next tier, contracting in reverse.',
};

const tabShipped: Partial<Record<FederationTab, string>> = {
  'scale-up':
    'Karmada has no cross-cluster scale-up of member HPAs: the one FederatedHPA loop raises the template’s replicas and the scheduler re-divides them.',
  'scale-down': 'Karmada has no prioritized scale-down: the scheduler shrinks a DynamicWeight binding in proportion to the previous split.',
  optimize: 'Karmada has no period or trigger optimization: there are no member HPAs whose bounds could be rebalanced.',
  zero: 'Karmada rejects scale to zero: validation requires minReplicas ≥ 1 (“Karmada does not support HPA scale to zero temporarily”).',
};

/** Says in words that the seed's policies never shipped, and what Karmada does instead. */
export function ShippedNote({
  model,
  tab,
  seedPolicy,
  strategy,
}: {
  model: Model;
  tab: FederationTab;
  seedPolicy: SeedPolicy;
  strategy: string;
}): React.JSX.Element {
  return (
    <section className={`card ${styles.shipped}`} aria-labelledby="shipped-title" data-testid="shipped-note">
      <h2 id="shipped-title" className={styles.sectionTitle}>
        {model === 'karmada' && tab === 'assign' ? 'What karmada-scheduler does' : 'The seed’s design never shipped'}
      </h2>
      {model === 'karmada' && tab === 'assign' ? (
        <p>
          This is the shipped division (Karmada v1.6+): the FederatedHPA computes one desired count for the resource template, and
          karmada-scheduler divides it with the PropagationPolicy’s <strong>{strategy}</strong> strategy — Webster (Sainte-Laguë) since
          v1.16, legacy TakeByWeight in v1.5–v1.15. “Before” is the live ResourceBinding; “after” is where the scheduler would put the
          replicas now.
          {strategy === 'DynamicWeight' || strategy === 'Aggregated'
            ? ' On a scale-up it divides only the new replicas, by each cluster’s headroom, and adds them to the live split; on a scale-down it divides the new total by the live split.'
            : null}
        </p>
      ) : (
        <>
          <p>
            The proposal behind these policies (karmada-io/karmada PR #3161, February 2023) was <strong>never merged</strong>. It split a
            FederatedHPA’s min/max into per-cluster HPAs. Karmada shipped a centralized FederatedHPA instead (v1.6+): one HPA loop on the
            control plane sets the template’s replicas, and karmada-scheduler divides them by the PropagationPolicy. None of the five
            policies exists as a FederatedHPA field.
          </p>
          <p>
            <strong>{seedPolicy} today:</strong> {shippedInstead[seedPolicy]}
          </p>
          {tabShipped[tab] ? <p>{tabShipped[tab]}</p> : null}
        </>
      )}
    </section>
  );
}
