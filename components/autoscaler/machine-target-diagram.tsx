import type { Autoscaler, Health, MachineDetails, MachineSetCopy } from '@/lib/api';
import { DEFAULT_CLUSTER_API_NAMESPACE, DEFAULT_MACHINE_API_NAMESPACE } from '@/lib/machine/keys';
import { conditionMeaning } from '@/lib/triage';
import { ConditionChip, healthLabel } from '../ui/health';
import styles from './panels.module.css';

type Side = 'MachineAPI' | 'ClusterAPI';
const sideOf = (apiVersion: string): Side | null =>
  apiVersion.startsWith('machine.openshift.io/') ? 'MachineAPI' : apiVersion.startsWith('cluster.x-k8s.io/') ? 'ClusterAPI' : null;
const sideTitle: Record<Side, string> = { MachineAPI: 'Machine API copy', ClusterAPI: 'Cluster API copy' };
const sideNamespace: Record<Side, string> = { MachineAPI: DEFAULT_MACHINE_API_NAMESPACE, ClusterAPI: DEFAULT_CLUSTER_API_NAMESPACE };

interface Check {
  label: string;
  health: Health;
  text: string;
  testId: string;
}

/**
 * Owner and min/max annotations on one copy, judged against this MachineAutoscaler. Only the authoritative copy must
 * carry them (lib/machine: the cluster autoscaler reads that one); on the other they are shown grey, as facts.
 */
function checksFor(copy: MachineSetCopy, a: Autoscaler, required: boolean): Check[] {
  const self = `${a.namespace}/${a.name}`;
  const ownedByOther = copy.owner !== null && copy.owner !== self;
  const bad = (h: Health): Health => (required ? h : 'unknown');
  const owner: Check =
    copy.owner === null
      ? { label: 'owner', health: bad('failing'), text: 'annotation missing', testId: 'owner' }
      : !ownedByOther
        ? { label: 'owner', health: 'ok', text: 'this MachineAutoscaler', testId: 'owner' }
        : { label: 'owner', health: bad('failing'), text: `owned by ${copy.owner}`, testId: 'owner' };
  const bound = (label: 'min' | 'max', value: string | null, want: number | null): Check => {
    if (value === null) return { label, health: bad('failing'), text: 'annotation missing', testId: label };
    // Set by the other owner: a consequence of the ownership problem, not a second one.
    if (want !== null && value !== String(want))
      return { label, health: bad(ownedByOther ? 'degraded' : 'failing'), text: `${value} ≠ ${want} in spec`, testId: label };
    return { label, health: 'ok', text: `${value}${want !== null ? ' = spec' : ''}`, testId: label };
  };
  return [owner, bound('min', copy.minAnnotation, a.minReplicas), bound('max', copy.maxAnnotation, a.maxReplicas)];
}

function CopyBox({
  side,
  copy,
  a,
  target,
  referenced,
}: {
  side: Side;
  copy: MachineSetCopy | undefined;
  a: Autoscaler;
  target: MachineDetails['target'];
  referenced: boolean;
}): React.JSX.Element {
  const authority = target.authoritativeAPI;
  const isAuthoritative = authority === side;
  const role =
    authority === 'Migrating'
      ? 'migrating'
      : isAuthoritative
        ? 'authoritative'
        : authority
          ? 'mirror (not authoritative)'
          : 'authority unknown';
  const roleHealth: Health = authority === 'Migrating' ? 'unknown' : isAuthoritative ? 'ok' : 'unknown';
  if (!copy) {
    return (
      <div className={`${styles.copyBox} ${styles.copyMissing}`} data-testid={`copy-${side}`} data-found="false">
        <div className={styles.copyTitle}>{sideTitle[side]}</div>
        <p className="muted">
          No MachineSet of this name in <span className="mono">{sideNamespace[side]}</span>.
        </p>
        {referenced ? <p className="health-badge health-failing">The MachineAutoscaler references this missing copy.</p> : null}
      </div>
    );
  }
  return (
    <div
      className={`${styles.copyBox} ${referenced ? styles.copyReferenced : ''}`}
      data-testid={`copy-${side}`}
      data-found="true"
      data-authoritative={isAuthoritative ? 'true' : 'false'}
      data-referenced={referenced ? 'true' : 'false'}
    >
      <div className={styles.copyTitle}>
        {sideTitle[side]}
        <span className={`health-badge health-${roleHealth}`} data-testid="copy-role">
          {isAuthoritative ? '★ ' : ''}
          {role}
        </span>
      </div>
      <div className="mono">
        {copy.namespace}/{copy.name}
      </div>
      <div className="muted mono">{copy.apiVersion}</div>
      <dl className={styles.copyFacts}>
        <dt>replicas</dt>
        <dd className="num">
          {copy.readyReplicas ?? '—'} ready / {copy.replicas ?? '—'}
        </dd>
        <dt>paused</dt>
        <dd>
          {copy.paused ? (
            <span className={`health-badge health-${isAuthoritative ? 'degraded' : 'ok'}`}>
              {isAuthoritative ? 'paused (authoritative copy!)' : 'paused, as a mirror is'}
            </span>
          ) : (
            'no'
          )}
        </dd>
        {checksFor(copy, a, isAuthoritative).map((c) => (
          <div key={c.label} className={styles.checkRow} data-testid={`check-${c.testId}`} data-health={c.health}>
            <dt>{c.label}</dt>
            <dd className={`health-${c.health}`}>
              <span className="health-dot" aria-hidden="true" /> {c.text}
              {c.health !== 'ok' && c.health !== 'unknown' ? <span className="visually-hidden"> ({healthLabel[c.health]})</span> : null}
            </dd>
          </div>
        ))}
      </dl>
      {copy.requestedAuthoritativeAPI && copy.authoritativeAPI && copy.requestedAuthoritativeAPI !== copy.authoritativeAPI ? (
        <p className="health-badge health-unknown">
          spec.authoritativeAPI asks for {copy.requestedAuthoritativeAPI}; status still says {copy.authoritativeAPI}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The target resolution as a small diagram: the Machine API and Cluster API copies of the MachineSet, which one is
 * authoritative, which one this MachineAutoscaler references, and whether each carries its owner and min/max
 * annotations; beside it the Ready that Autoscope derives and the operator's own condition.
 */
export function MachineTargetDiagram({
  autoscaler: a,
  machineSets,
}: {
  autoscaler: Autoscaler;
  machineSets: readonly MachineSetCopy[];
}): React.JSX.Element {
  const m = a.machine;
  if (!m) return <p className="muted">No target resolution for this MachineAutoscaler.</p>;
  const target = m.target;
  const referencedSide = sideOf(target.apiVersion);
  const copies = {
    MachineAPI: machineSets.find((c) => sideOf(c.apiVersion) === 'MachineAPI'),
    ClusterAPI: machineSets.find((c) => sideOf(c.apiVersion) === 'ClusterAPI'),
  };
  const refHealth: Health = !target.found
    ? 'failing'
    : target.refIsAuthoritative === false
      ? 'failing'
      : target.refIsAuthoritative === null
        ? 'unknown'
        : 'ok';
  const derivedMeaning = conditionMeaning('MachineAutoscaler', { type: 'Ready', ...m.derivedReady });
  const operatorMeaning = m.operatorReady ? conditionMeaning('MachineAutoscaler', { type: 'Ready', ...m.operatorReady }) : 'unknown';
  const disagree = m.operatorReady !== null && m.operatorReady.status !== m.derivedReady.status;

  return (
    <section className="card" aria-labelledby="target-title" data-testid="machine-target">
      <h2 id="target-title" className={styles.h2}>
        Target resolution
      </h2>
      <div className={styles.diagram} role="group" aria-label="MachineSet copies and the MachineAutoscaler's reference">
        <div className={styles.maRow} data-side={referencedSide ?? 'none'}>
          <div className={styles.maBox}>
            <div className={styles.copyTitle}>MachineAutoscaler</div>
            <div className="mono">
              {a.namespace}/{a.name}
            </div>
            <div className="num muted">
              min {a.minReplicas ?? '—'} · max {a.maxReplicas ?? '—'}
            </div>
          </div>
          <div className={`${styles.refArrow} health-${refHealth}`} data-testid="reference" data-health={refHealth}>
            <span aria-hidden="true" className={styles.arrowLine} />
            <span className={styles.refLabel}>
              targetScaleRef → {target.kind} <span className="mono">{target.name}</span> ({target.apiVersion.split('/')[0]}){' '}
              <strong>
                {!target.found
                  ? 'not found'
                  : target.refIsAuthoritative === false
                    ? 'references the non-authoritative copy'
                    : target.refIsAuthoritative
                      ? 'references the authoritative copy'
                      : 'authority unknown'}
              </strong>
            </span>
          </div>
        </div>
        <div className={styles.copies}>
          <CopyBox side="MachineAPI" copy={copies.MachineAPI} a={a} target={target} referenced={referencedSide === 'MachineAPI'} />
          <div className={styles.mirrorLink} aria-hidden="true">
            <span>⇄</span>
            <span className="muted">{target.authoritativeAPI === 'Migrating' ? 'migrating' : 'mirrored'}</span>
          </div>
          <CopyBox side="ClusterAPI" copy={copies.ClusterAPI} a={a} target={target} referenced={referencedSide === 'ClusterAPI'} />
        </div>
      </div>

      <h3 className={styles.h3}>Ready</h3>
      <div className={styles.readyPair}>
        <div
          className={styles.readyBox}
          data-testid="derived-ready"
          data-status={m.derivedReady.status}
          data-reason={m.derivedReady.reason}
        >
          <div className="muted">Derived by Autoscope</div>
          <ConditionChip
            condition={{
              type: 'Ready',
              status: m.derivedReady.status,
              reason: m.derivedReady.reason,
              message: m.derivedReady.message,
              meaning: derivedMeaning,
            }}
          />
          <p className={styles.readyMessage}>{m.derivedReady.message}</p>
        </div>
        <div className={styles.readyBox} data-testid="operator-ready" data-status={m.operatorReady?.status ?? 'absent'}>
          <div className="muted">The operator&apos;s own condition</div>
          {m.operatorReady ? (
            <>
              <ConditionChip
                condition={{
                  type: 'Ready',
                  status: m.operatorReady.status,
                  reason: m.operatorReady.reason,
                  message: m.operatorReady.message,
                  meaning: operatorMeaning,
                }}
              />
              <p className={styles.readyMessage}>{m.operatorReady.message}</p>
            </>
          ) : (
            <p className={styles.readyMessage}>
              <span className="health-badge health-unknown">not set</span> This operator version reports no Ready condition; Autoscope
              derives it from the MachineSets and the other MachineAutoscalers.
            </p>
          )}
        </div>
      </div>
      {disagree ? (
        <p className="banner banner-warn" data-testid="ready-disagree">
          The operator says Ready={m.operatorReady?.status}, Autoscope derives Ready={m.derivedReady.status}: the operator may not have
          reconciled the latest change yet.
        </p>
      ) : null}
      {m.findings.length ? (
        <>
          <h3 className={styles.h3}>Findings</h3>
          <ul className={styles.findings}>
            {m.findings.map((f) => (
              <li
                key={f.code}
                className={`health-${f.severity === 'error' ? 'failing' : f.severity === 'warning' ? 'degraded' : f.severity === 'unknown' ? 'unknown' : 'ok'}`}
                data-testid="finding"
                data-code={f.code}
              >
                <span className="health-dot" aria-hidden="true" /> <span className="mono">{f.code}</span>{' '}
                <span className="muted">{f.message}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
