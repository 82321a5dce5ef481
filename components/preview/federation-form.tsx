'use client';

import { useId } from 'react';
import type { Autoscaler } from '@/lib/api';
import { KarmadaStrategySchema, SeedPolicySchema } from '@/lib/api';
import type { GroupedIssues } from './field-issues';
import { federationPresets } from './federation-presets';
import type { ClusterField, FederationCluster, FederationForm as Form, ScalarKey } from './federation-state';
import { clusterColumns, hasBlocked, seedPolicyOf } from './federation-state';
import { Issue, UnplacedIssues, toNumber } from './form-parts';
import styles from './preview.module.css';

export const cellKey = (row: number, field: ClusterField | 'name'): string => `cell:${row}:${field}`;
export const scalarKey = (key: ScalarKey): string => `scalar:${key}`;

type SetForm = (update: (form: Form) => Form) => void;

function NumberField({
  label,
  value,
  onChange,
  issues,
  issueKey,
  min,
  testId,
}: {
  label: string;
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  issues: GroupedIssues;
  issueKey: string;
  min?: number;
  testId?: string;
}): React.JSX.Element {
  const messages = issues.byKey.get(issueKey);
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className={styles.input}
        type="number"
        inputMode="numeric"
        min={min}
        value={value ?? ''}
        onChange={(e) => onChange(toNumber(e.target.value))}
        aria-invalid={messages ? true : undefined}
        aria-describedby={messages ? errorId : undefined}
        data-testid={testId}
      />
      <Issue id={errorId} messages={messages} />
    </div>
  );
}

const seedPolicies = SeedPolicySchema.options;
const karmadaStrategies = KarmadaStrategySchema.options;

function PolicySelect({ form, setForm, issues }: { form: Form; setForm: SetForm; issues: GroupedIssues }): React.JSX.Element {
  const messages = issues.byKey.get(scalarKey('policy'));
  if (form.tab === 'scale-down') {
    return <p className={styles.hint}>Prioritized scale-down removes replicas from the lowest priority first; it has no policy choice.</p>;
  }
  const onlySeed = form.tab !== 'assign';
  const value = onlySeed ? `seed:${seedPolicyOf(form)}` : `${form.model}:${form.policy}`;
  return (
    <label className={styles.field}>
      <span>{onlySeed ? 'Seed policy' : 'Policy or strategy'}</span>
      <select
        className={styles.select}
        value={value}
        aria-invalid={messages ? true : undefined}
        onChange={(e) => {
          const [model, policy] = e.target.value.split(':') as [Form['model'], string];
          setForm((f) => ({ ...f, model, policy }));
        }}
        data-testid="policy-select"
      >
        {onlySeed ? null : (
          <optgroup label="Karmada scheduler (shipped)">
            {karmadaStrategies.map((s) => (
              <option key={s} value={`karmada:${s}`}>
                {s} (Karmada)
              </option>
            ))}
          </optgroup>
        )}
        <optgroup label="Seed proposal (never shipped)">
          {seedPolicies.map((p) => (
            <option key={p} value={`seed:${p}`}>
              {p} (seed)
            </option>
          ))}
        </optgroup>
      </select>
      <Issue id="policy-error" messages={messages} />
    </label>
  );
}

function Segmented<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (v: T) => void;
}): React.JSX.Element {
  return (
    <div role="radiogroup" aria-label={legend} className={styles.segmented}>
      {options.map((o) => (
        <label key={o.value}>
          <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
          {o.label}
        </label>
      ))}
    </div>
  );
}

/** The blocked cluster (scale-up, trigger optimization) and the fields only it has. */
function BlockedFields({ form, setForm, issues }: { form: Form; setForm: SetForm; issues: GroupedIssues }): React.JSX.Element {
  const row = Math.min(form.blocked, Math.max(0, form.clusters.length - 1));
  const blocked = form.clusters[row];
  const update = (patch: Partial<FederationCluster>): void =>
    setForm((f) => ({ ...f, clusters: f.clusters.map((c, i) => (i === row ? { ...c, ...patch } : c)) }));
  const trigger = form.tab === 'optimize';
  return (
    <div className={styles.fields}>
      <label className={styles.field}>
        <span>Blocked cluster</span>
        <select
          className={styles.select}
          value={row}
          onChange={(e) => setForm((f) => ({ ...f, blocked: Number(e.target.value) }))}
          data-testid="blocked-cluster"
        >
          {form.clusters.map((c, i) => (
            <option key={i} value={i}>
              {c.name || `row ${i + 1}`}
            </option>
          ))}
        </select>
      </label>
      {trigger ? null : (
        <NumberField
          label="Its utilization %"
          value={blocked?.utilization}
          onChange={(v) => update({ utilization: v })}
          issues={issues}
          issueKey={cellKey(row, 'utilization')}
          min={0}
          testId="blocked-utilization"
        />
      )}
      <NumberField
        label={trigger ? 'Pending pods' : 'Pending (optional)'}
        value={blocked?.pending}
        onChange={(v) => update({ pending: v })}
        issues={issues}
        issueKey={cellKey(row, 'pending')}
        min={0}
        testId="blocked-pending"
      />
      {trigger ? (
        <NumberField
          label="Its minReplicas"
          value={blocked?.min}
          onChange={(v) => update({ min: v })}
          issues={issues}
          issueKey={cellKey(row, 'min')}
          min={0}
          testId="blocked-min"
        />
      ) : null}
    </div>
  );
}

function Scalars({ form, setForm, issues }: { form: Form; setForm: SetForm; issues: GroupedIssues }): React.JSX.Element {
  const set = (patch: Partial<Form>): void => setForm((f) => ({ ...f, ...patch }));
  const fmin = (
    <NumberField
      label="Federated min"
      value={form.fmin}
      onChange={(v) => set({ fmin: v })}
      issues={issues}
      issueKey={scalarKey('fmin')}
      min={1}
      testId="fmin"
    />
  );
  switch (form.tab) {
    case 'assign':
      if (form.model === 'karmada') {
        return (
          <div className={styles.fields}>
            <NumberField
              label="Desired replicas"
              value={form.replicas}
              onChange={(v) => set({ replicas: v })}
              issues={issues}
              issueKey={scalarKey('replicas')}
              min={0}
              testId="replicas"
            />
            <label className={styles.field}>
              <span>Divider</span>
              <select
                className={styles.select}
                value={form.divider === 'legacy' ? `legacy:${form.legacyVariant ?? 'v1.5'}` : 'webster'}
                onChange={(e) => {
                  const v = e.target.value;
                  if (v === 'webster') set({ divider: 'webster', legacyVariant: undefined });
                  else set({ divider: 'legacy', legacyVariant: v === 'legacy:v1.8' ? 'v1.8' : 'v1.5' });
                }}
              >
                <option value="webster">Webster (v1.16+)</option>
                <option value="legacy:v1.5">TakeByWeight (v1.5–v1.7)</option>
                <option value="legacy:v1.8">TakeByWeight (v1.8–v1.15)</option>
              </select>
            </label>
            <label className={styles.field}>
              <span>Mode</span>
              <select
                className={styles.select}
                value={form.mode}
                onChange={(e) => set({ mode: e.target.value === 'Fresh' ? 'Fresh' : 'Steady' })}
              >
                <option value="Steady">Steady</option>
                <option value="Fresh">Fresh (rescheduleTriggeredAt)</option>
              </select>
            </label>
            <label className={`${styles.field} ${styles.wide}`}>
              <span>Resource UID (picks Webster’s tie direction)</span>
              <input
                className={`${styles.input} mono`}
                value={form.uid}
                onChange={(e) => set({ uid: e.target.value })}
                spellCheck={false}
              />
            </label>
          </div>
        );
      }
      return (
        <div className={styles.fields}>
          {fmin}
          <NumberField
            label="Federated max"
            value={form.fmax}
            onChange={(v) => set({ fmax: v })}
            issues={issues}
            issueKey={scalarKey('fmax')}
            min={1}
            testId="fmax"
          />
          <label className={styles.field}>
            <span>Webster ties</span>
            <select
              className={styles.select}
              value={form.tieBreak ?? ''}
              onChange={(e) =>
                set({ tieBreak: e.target.value === 'nameAsc' || e.target.value === 'nameDesc' ? e.target.value : undefined })
              }
            >
              <option value="">By UID</option>
              <option value="nameAsc">Name ascending</option>
              <option value="nameDesc">Name descending</option>
            </select>
          </label>
          <label className={styles.checkField}>
            <input type="checkbox" checked={form.scaleToZero} onChange={(e) => set({ scaleToZero: e.target.checked })} />
            Scale to zero
          </label>
        </div>
      );
    case 'scale-up':
    case 'scale-down':
      return (
        <>
          <div className={styles.fields}>
            <NumberField
              label="Target utilization %"
              value={form.target}
              onChange={(v) => set({ target: v })}
              issues={issues}
              issueKey={scalarKey('target')}
              min={1}
              testId="target"
            />
          </div>
          {form.tab === 'scale-up' ? <BlockedFields form={form} setForm={setForm} issues={issues} /> : null}
        </>
      );
    case 'optimize':
      return (
        <>
          <Segmented
            legend="Optimization"
            name="optimize"
            value={form.optimize}
            options={[
              { value: 'period', label: 'Period' },
              { value: 'trigger', label: 'Trigger (pending pods)' },
            ]}
            onChange={(v) => set({ optimize: v })}
          />
          {form.optimize === 'trigger' ? <BlockedFields form={form} setForm={setForm} issues={issues} /> : null}
        </>
      );
    case 'zero':
      return (
        <div className={styles.fields}>
          <Segmented
            legend="Direction"
            name="zero"
            value={form.zero}
            options={[
              { value: 'to', label: 'To zero' },
              { value: 'from', label: 'From zero' },
            ]}
            onChange={(v) => set({ zero: v })}
          />
          {form.zero === 'to' ? fmin : null}
        </div>
      );
  }
}

function ClusterTable({ form, setForm, issues }: { form: Form; setForm: SetForm; issues: GroupedIssues }): React.JSX.Element {
  const columns = clusterColumns(form);
  const blocked = hasBlocked(form);
  const candidates = form.tab === 'assign';
  const update = (row: number, patch: Partial<FederationCluster>): void =>
    setForm((f) => ({ ...f, clusters: f.clusters.map((c, i) => (i === row ? { ...c, ...patch } : c)) }));
  const remove = (row: number): void =>
    setForm((f) => ({
      ...f,
      clusters: f.clusters.filter((_, i) => i !== row),
      blocked: f.blocked > row ? f.blocked - 1 : f.blocked === row ? 0 : f.blocked,
    }));
  // Every cell issue is listed under the table (with its row's name), except the blocked cluster's own fields,
  // which show theirs beside them above the table.
  const shownAbove = (row: number, field: string): boolean =>
    blocked && row === form.blocked && (field === 'pending' || field === 'utilization' || (field === 'min' && form.tab === 'optimize'));
  const rowIssues: { name: string; label: string; message: string }[] = [];
  for (const [key, messages] of issues.byKey) {
    const [kind, rowText, field = ''] = key.split(':');
    const row = Number(rowText);
    if (kind !== 'cell' || shownAbove(row, field)) continue;
    const name = form.clusters[row]?.name || `row ${row + 1}`;
    const label = field === 'name' ? 'name' : (columns.find((col) => col.field === field)?.label ?? field);
    for (const message of messages) rowIssues.push({ name, label, message });
  }
  return (
    <>
      <div className={styles.clusterWrap}>
        <table className={styles.clusterTable} data-testid="cluster-table">
          <thead>
            <tr>
              {candidates ? (
                <th title="A candidate of this assignment (unchecked: only its previous replicas count, so it is removed)">
                  <span aria-hidden="true">Use</span>
                  <span className="visually-hidden">Candidate</span>
                </th>
              ) : null}
              <th>Cluster</th>
              {columns.map((col) => (
                <th key={col.field} className={styles.numHead} title={col.help}>
                  {col.label}
                </th>
              ))}
              <th>
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {form.clusters.map((c, row) => {
              const label = c.name || `row ${row + 1}`;
              const isBlocked = blocked && row === Math.min(form.blocked, form.clusters.length - 1);
              const nameIssues = issues.byKey.get(cellKey(row, 'name'));
              return (
                <tr
                  key={row}
                  className={`${candidates && c.off ? styles.offRow : ''} ${isBlocked ? styles.blockedRow : ''}`}
                  data-testid="cluster-row"
                  data-blocked={isBlocked ? 'true' : undefined}
                >
                  {candidates ? (
                    <td>
                      <input
                        type="checkbox"
                        checked={!c.off}
                        onChange={(e) => update(row, { off: e.target.checked ? undefined : true })}
                        aria-label={`Candidate: ${label}`}
                      />
                    </td>
                  ) : null}
                  <td className={styles.nameCell}>
                    <input
                      className={`${styles.input} mono`}
                      size={10}
                      value={c.name}
                      onChange={(e) => update(row, { name: e.target.value })}
                      aria-label={`Cluster name (row ${row + 1})${isBlocked ? ', blocked' : ''}`}
                      title={isBlocked ? 'The blocked cluster' : undefined}
                      aria-invalid={nameIssues ? true : undefined}
                      spellCheck={false}
                    />
                  </td>
                  {columns.map((col) => {
                    const messages = issues.byKey.get(cellKey(row, col.field));
                    return (
                      <td key={col.field} className={styles.numCell}>
                        <input
                          className={styles.input}
                          type="number"
                          inputMode="numeric"
                          value={c[col.field] ?? ''}
                          onChange={(e) => update(row, { [col.field]: toNumber(e.target.value) })}
                          aria-label={`${col.label} (${label})`}
                          aria-description={col.help}
                          aria-invalid={messages ? true : undefined}
                          title={messages ? messages.join('; ') : col.help}
                        />
                      </td>
                    );
                  })}
                  <td>
                    <button
                      type="button"
                      className={styles.removeButton}
                      onClick={() => remove(row)}
                      aria-label={`Remove ${label}`}
                      title={`Remove ${label}`}
                    >
                      ×
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {rowIssues.length ? (
        <ul className={styles.issueList} data-testid="cluster-issues">
          {rowIssues.map((i, k) => (
            <li key={k}>
              <strong>{i.name}</strong> {i.label}: {i.message}
            </li>
          ))}
        </ul>
      ) : null}
      <Issue id="clusters-error" messages={issues.byKey.get(scalarKey('clusters'))} />
      <div className={styles.buttons}>
        <button
          type="button"
          className={styles.small}
          onClick={() => setForm((f) => ({ ...f, clusters: [...f.clusters, { name: `member${f.clusters.length + 1}` }] }))}
        >
          Add cluster
        </button>
      </div>
    </>
  );
}

/** The federation preview's inputs: where to start, the policy and its numbers, and the member clusters. */
export function FederationFormPanel({
  form,
  setForm,
  issues,
  live,
  loading,
  onStartLive,
  onStartBlank,
  onPreset,
}: {
  form: Form;
  setForm: SetForm;
  issues: GroupedIssues;
  live: readonly Autoscaler[];
  loading: boolean;
  onStartLive: (id: string) => void;
  onStartBlank: () => void;
  onPreset: (key: string) => void;
}): React.JSX.Element {
  return (
    <form
      className={`card ${styles.form}`}
      aria-label="Federation preview inputs"
      onSubmit={(e) => e.preventDefault()}
      data-testid="federation-form"
    >
      <h2 className={styles.formTitle}>Inputs</h2>
      <fieldset className={styles.group}>
        <legend>Start from</legend>
        <label className={styles.field}>
          <span>Live FederatedHPA</span>
          <select
            className={styles.select}
            value={form.id ?? ''}
            onChange={(e) => {
              if (e.target.value) onStartLive(e.target.value);
              else onStartBlank();
            }}
            data-testid="start-live"
          >
            <option value="">Blank (no live object)</option>
            {live.map((a) => (
              <option key={a.id} value={a.id}>
                {a.namespace}/{a.name} — {a.cluster} ({a.federation?.strategy ?? 'no placement'})
              </option>
            ))}
          </select>
        </label>
        {loading ? <p className={styles.hint}>Reading the live binding…</p> : null}
        <label className={styles.field}>
          <span>Or a worked example from the seed proposal</span>
          <select
            className={styles.select}
            value=""
            onChange={(e) => {
              if (e.target.value) onPreset(e.target.value);
            }}
            data-testid="preset"
          >
            <option value="">Choose an example…</option>
            {federationPresets.map((p) => (
              <option key={p.key} value={p.key}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <fieldset className={styles.group}>
        <legend>Policy</legend>
        <PolicySelect form={form} setForm={setForm} issues={issues} />
        <Scalars form={form} setForm={setForm} issues={issues} />
      </fieldset>
      <fieldset className={styles.group}>
        <legend>Member clusters</legend>
        <ClusterTable form={form} setForm={setForm} issues={issues} />
      </fieldset>
      <UnplacedIssues issues={issues.unplaced} />
    </form>
  );
}
