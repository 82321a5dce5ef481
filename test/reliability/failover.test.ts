import { describe, expect, it } from 'vitest';
import { runFailover } from './failover';

/**
 * Three replicas on one PostgreSQL against ten simulated clusters; the third joins the first two (which hand it its
 * share of the clusters) and is killed with SIGKILL. Its clusters are
 * taken over within 30 s; no cluster is ever owned by two replicas; the survivors answer for the whole fleet
 * throughout; an event stream held on a survivor keeps carrying changes of the dead replica's clusters; and the
 * simulator's ground truth shows no transition lost or recorded twice across the handover.
 */
describe('failover between replicas sharing PostgreSQL', () => {
  it('takes a killed replica’s clusters over within 30 s and loses or doubles no transition', async () => {
    const lines: string[] = [];
    const f = await runFailover({
      clusters: 10,
      hpasPerCluster: 12,
      replicas: 3,
      killAfterMs: 10_000,
      runAfterKillMs: 15_000,
      leaseSeconds: 15,
      speed: 20,
      basePort: 3230,
      log: (l) => lines.push(l),
    });
    console.info(
      `failover: ${f.handoffs} leases handed over after the last replica started; owners before ${JSON.stringify(f.ownersBefore)}; takeover ${f.takeoverMs} ms; ` +
        `${f.recorded} recorded + ${f.unobservable} unobservable + ${f.lostInFlight} lost in flight of ${f.total}; ${f.missing.length} missing; ` +
        `${f.inconsistent.length} inconsistent; ${f.duplicateSegments} duplicates; ${f.doubleOwnedPolls} double-owned polls; ` +
        `${f.incompleteAnswers}/${f.survivorAnswers} incomplete survivor answers; ${f.streamedAfterTakeover} streamed changes after takeover`,
    );
    // Ownership: the three split the ten clusters, and the victim held some.
    expect(Object.keys(f.ownersBefore).sort()).toEqual(['replica-1', 'replica-2', 'replica-3']);
    // The last replica joined a running pair: its share was handed over to it, and is judged with the rest.
    expect(f.handoffs).toBeGreaterThanOrEqual(3);
    expect(f.doubleOwnedPolls).toBe(0);
    expect(f.takeoverMs).not.toBeNull();
    expect(f.takeoverMs ?? Infinity).toBeLessThanOrEqual(30_000);
    // The survivors answer for the whole fleet throughout, and a survivor's stream carries the dead one's clusters.
    expect(f.survivorAnswers).toBeGreaterThan(20);
    expect(f.incompleteAnswers, lines.slice(-20).join('\n')).toBe(0);
    expect(f.streamedAfterTakeover).toBeGreaterThan(0);
    // History: every ground-truth transition recorded once or proven unobservable, across the handover.
    expect(f.total).toBeGreaterThan(50);
    // When one goes missing, say where it stood: the kill, who held which cluster, what was handed over.
    const context = `killed ${f.killAt}; owners ${JSON.stringify(f.ownersBefore)}; handed over ${f.handoffs}`;
    expect(f.missing, `${context}: ${JSON.stringify(f.missingServedBy)}`).toEqual([]);
    expect(f.inconsistent, JSON.stringify(f.inconsistent.slice(0, 10))).toEqual([]);
    expect(f.recorded + f.unobservable + f.lostInFlight).toBe(f.total);
    expect(f.duplicateSegments, `killed at ${f.killAt}: ${JSON.stringify(f.duplicates.slice(0, 5))}`).toBe(0);
  }, 300_000);
});
