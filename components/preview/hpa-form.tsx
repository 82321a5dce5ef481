'use client';

import { useId } from 'react';
import type { Autoscaler } from '@/lib/api';
import type { GroupedIssues } from './field-issues';
import type { Behavior, HpaForm, MetricSpec, PolicyForm, RulesForm } from './hpa-state';
import {
  curveFactors,
  curveLabel,
  curves,
  defaultScaleDown,
  defaultScaleUp,
  describeBehavior,
  metricName,
  rulesFromApi,
  targetOf,
  targetValue,
} from './hpa-state';
import { Issue, UnplacedIssues, toNumber } from './form-parts';
import styles from './preview.module.css';

type SetForm = (update: (form: HpaForm) => HpaForm) => void;

function Field({
  label,
  issueKey,
  issues,
  value,
  placeholder,
  onChange,
  type = 'number',
  step,
  wide = false,
  live,
}: {
  label: string;
  issueKey: string;
  issues: GroupedIssues;
  value: string;
  placeholder?: string;
  onChange: (text: string) => void;
  type?: 'number' | 'text';
  step?: string;
  wide?: boolean;
  live?: string;
}): React.JSX.Element {
  const messages = issues.byKey.get(issueKey);
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [live !== undefined ? hintId : null, messages ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`${styles.field} ${wide ? styles.wide : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className={`${styles.input} ${type === 'text' ? 'mono' : ''}`}
        type={type}
        step={step}
        inputMode={type === 'number' ? 'decimal' : undefined}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={messages ? true : undefined}
        aria-describedby={describedBy}
        data-testid={`hpa-${issueKey}`}
        spellCheck={false}
      />
      {live !== undefined ? (
        <span id={hintId} className={styles.hint}>
          live: {live}
        </span>
      ) : null}
      <Issue id={errorId} messages={messages} />
    </div>
  );
}

function RulesEditor({
  side,
  rules,
  onChange,
  issues,
}: {
  side: 'up' | 'down';
  rules: RulesForm;
  onChange: (r: RulesForm) => void;
  issues: GroupedIssues;
}): React.JSX.Element {
  const title = side === 'up' ? 'scaleUp' : 'scaleDown';
  const messages = issues.byKey.get(side);
  const setPolicy = (i: number, patch: Partial<PolicyForm>): void =>
    onChange({ ...rules, policies: rules.policies.map((p, k) => (k === i ? { ...p, ...patch } : p)) });
  return (
    <fieldset className={styles.group} aria-invalid={messages ? true : undefined}>
      <legend>{title}</legend>
      <div className={styles.fields}>
        <label className={styles.field}>
          <span>Stabilization (s)</span>
          <input
            className={styles.input}
            type="number"
            min={0}
            value={rules.window ?? ''}
            onChange={(e) => onChange({ ...rules, window: toNumber(e.target.value) })}
          />
        </label>
        <label className={styles.field}>
          <span>selectPolicy</span>
          <select
            className={styles.select}
            value={rules.select}
            onChange={(e) =>
              onChange({ ...rules, select: e.target.value === 'Min' || e.target.value === 'Disabled' ? e.target.value : 'Max' })
            }
          >
            <option value="Max">Max</option>
            <option value="Min">Min</option>
            <option value="Disabled">Disabled</option>
          </select>
        </label>
      </div>
      <table className={styles.clusterTable}>
        <thead>
          <tr>
            <th>Policy</th>
            <th className={styles.numHead}>Value</th>
            <th className={styles.numHead}>Period (s)</th>
            <th>
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.policies.map((p, i) => (
            <tr key={i}>
              <td>
                <select
                  className={styles.select}
                  value={p.type}
                  onChange={(e) => setPolicy(i, { type: e.target.value === 'Pods' ? 'Pods' : 'Percent' })}
                  aria-label={`${title} policy ${i + 1} type`}
                >
                  <option value="Pods">Pods</option>
                  <option value="Percent">Percent</option>
                </select>
              </td>
              <td className={styles.numCell}>
                <input
                  className={styles.input}
                  type="number"
                  min={1}
                  value={p.value ?? ''}
                  onChange={(e) => setPolicy(i, { value: toNumber(e.target.value) })}
                  aria-label={`${title} policy ${i + 1} value`}
                />
              </td>
              <td className={styles.numCell}>
                <input
                  className={styles.input}
                  type="number"
                  min={1}
                  value={p.period ?? ''}
                  onChange={(e) => setPolicy(i, { period: toNumber(e.target.value) })}
                  aria-label={`${title} policy ${i + 1} period seconds`}
                />
              </td>
              <td>
                <button
                  type="button"
                  className={styles.small}
                  onClick={() => onChange({ ...rules, policies: rules.policies.filter((_, k) => k !== i) })}
                  aria-label={`Remove ${title} policy ${i + 1}`}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.buttons}>
        <button
          type="button"
          className={styles.small}
          onClick={() => onChange({ ...rules, policies: [...rules.policies, { type: 'Percent', value: 100, period: 15 }] })}
        >
          Add {title} policy
        </button>
      </div>
      <Issue id={`hpa-${side}-error`} messages={messages} />
    </fieldset>
  );
}

/** The HPA preview's inputs: which live HPA, its bounds, targets and behavior, the observed load and a load curve. */
export function HpaFormPanel({
  form,
  setForm,
  issues,
  hpas,
  live,
  onStart,
  onReset,
}: {
  form: HpaForm;
  setForm: SetForm;
  issues: GroupedIssues;
  hpas: readonly Autoscaler[];
  live: { min: number | null; max: number; metrics: readonly MetricSpec[]; behavior: Behavior | null } | null;
  onStart: (id: string) => void;
  onReset: () => void;
}): React.JSX.Element {
  const set = (patch: Partial<HpaForm>): void => setForm((f) => ({ ...f, ...patch }));
  const byCluster = new Map<string, Autoscaler[]>();
  for (const a of hpas) byCluster.set(a.cluster, [...(byCluster.get(a.cluster) ?? []), a]);
  const factors = curveFactors(form.curve, form.syncs, form.factors);
  return (
    <form className={`card ${styles.form}`} aria-label="HPA preview inputs" onSubmit={(e) => e.preventDefault()} data-testid="hpa-form">
      <h2 className={styles.formTitle}>Inputs</h2>
      <fieldset className={styles.group}>
        <legend>Start from</legend>
        <label className={styles.field}>
          <span>Live HorizontalPodAutoscaler</span>
          <select className={styles.select} value={form.id ?? ''} onChange={(e) => onStart(e.target.value)} data-testid="hpa-select">
            <option value="">Choose an HPA…</option>
            {form.id && !hpas.some((a) => a.id === form.id) ? <option value={form.id}>{form.id}</option> : null}
            {[...byCluster].map(([cluster, items]) => (
              <optgroup key={cluster} label={cluster}>
                {items.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.namespace}/{a.name} ({a.minReplicas ?? 1}–{a.maxReplicas ?? '?'}, {a.currentReplicas ?? '?'} now
                    {a.health === 'ok' ? '' : `, ${a.health}`})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
      </fieldset>
      {live ? (
        <>
          <fieldset className={styles.group}>
            <legend>Bounds</legend>
            <div className={styles.fields}>
              <Field
                label="minReplicas"
                issueKey="min"
                issues={issues}
                value={form.min === undefined ? '' : String(form.min)}
                placeholder={String(live.min ?? 1)}
                live={String(live.min ?? 1)}
                onChange={(t) => set({ min: toNumber(t) })}
              />
              <Field
                label="maxReplicas"
                issueKey="max"
                issues={issues}
                value={form.max === undefined ? '' : String(form.max)}
                placeholder={String(live.max)}
                live={String(live.max)}
                onChange={(t) => set({ max: toNumber(t) })}
              />
            </div>
          </fieldset>
          <fieldset className={styles.group}>
            <legend>Metric targets</legend>
            {live.metrics.length === 0 ? (
              <p className={styles.hint}>No metrics in the spec: the API’s default is cpu at 80 % utilization.</p>
            ) : null}
            <div className={styles.fields}>
              {live.metrics.map((m, i) => {
                const t = targetOf(m);
                const unit = t?.type === 'Utilization' ? ' %' : '';
                return (
                  <Field
                    key={i}
                    label={`${metricName(m)}${unit}`}
                    issueKey={`t${i}`}
                    issues={issues}
                    type={t?.type === 'Utilization' ? 'number' : 'text'}
                    value={form.targets[i] ?? ''}
                    placeholder={targetValue(t)}
                    live={`${targetValue(t)}${unit} (${m.type} ${t?.type ?? ''})`}
                    onChange={(v) => setForm((f) => ({ ...f, targets: { ...f.targets, [i]: v } }))}
                  />
                );
              })}
            </div>
          </fieldset>
          <fieldset className={styles.group}>
            <legend>Behavior</legend>
            <label className={styles.field}>
              <span>spec.behavior</span>
              <select
                className={styles.select}
                value={form.behavior}
                onChange={(e) => {
                  const v = e.target.value;
                  if (v === 'custom')
                    setForm((f) => ({
                      ...f,
                      behavior: 'custom',
                      up: f.behavior === 'custom' ? f.up : rulesFromApi(live.behavior?.scaleUp, defaultScaleUp),
                      down: f.behavior === 'custom' ? f.down : rulesFromApi(live.behavior?.scaleDown, defaultScaleDown),
                    }));
                  else set({ behavior: v === 'none' ? 'none' : 'live' });
                }}
                data-testid="hpa-behavior"
              >
                <option value="live">Keep the live behavior</option>
                <option value="none">None (legacy path: 5 min downscale window, ×2 scale-up limit)</option>
                <option value="custom">Edit the behavior</option>
              </select>
              <span className={styles.hint}>live: {describeBehavior(live.behavior)}</span>
            </label>
            {form.behavior === 'custom' ? (
              <>
                <RulesEditor side="up" rules={form.up} onChange={(up) => set({ up })} issues={issues} />
                <RulesEditor side="down" rules={form.down} onChange={(down) => set({ down })} issues={issues} />
              </>
            ) : null}
          </fieldset>
          <fieldset className={styles.group}>
            <legend>Load</legend>
            <div className={styles.fields}>
              <Field
                label="Observed metrics ×"
                issueKey="load"
                issues={issues}
                step="0.1"
                value={form.load === undefined ? '' : String(form.load)}
                placeholder="1"
                onChange={(t) => set({ load: toNumber(t) })}
              />
            </div>
            <p className={styles.hint}>Multiplies every observed metric value for the single sync above (2 = twice today’s load).</p>
          </fieldset>
          <fieldset className={styles.group}>
            <legend>Playback</legend>
            <div className={styles.fields}>
              <label className={`${styles.field} ${styles.wide}`}>
                <span>Load curve</span>
                <select
                  className={styles.select}
                  value={form.curve}
                  onChange={(e) => set({ curve: curves.find((c) => c === e.target.value) ?? 'off' })}
                  data-testid="hpa-curve"
                >
                  {curves.map((c) => (
                    <option key={c} value={c}>
                      {curveLabel[c]}
                    </option>
                  ))}
                </select>
              </label>
              {form.curve !== 'custom' && form.curve !== 'off' ? (
                <Field
                  label="Syncs"
                  issueKey="syncs"
                  issues={issues}
                  value={String(form.syncs)}
                  onChange={(t) => set({ syncs: toNumber(t) ?? 1 })}
                />
              ) : null}
              {form.curve !== 'off' ? (
                <Field
                  label="Every (s)"
                  issueKey="every"
                  issues={issues}
                  value={String(form.every)}
                  onChange={(t) => set({ every: toNumber(t) ?? 15 })}
                />
              ) : null}
              {form.curve === 'custom' ? (
                <Field
                  label="Factors (× today’s load)"
                  issueKey="factors"
                  issues={issues}
                  type="text"
                  wide
                  value={form.factors}
                  onChange={(factors) => set({ factors })}
                />
              ) : null}
            </div>
            {form.curve !== 'off' ? (
              <p className={styles.hint}>
                {factors.length} syncs, {form.every} s apart: ×{factors.slice(0, 12).join(', ×')}
                {factors.length > 12 ? ', …' : ''}
              </p>
            ) : null}
          </fieldset>
          <div className={styles.buttons}>
            <button type="button" className={styles.small} onClick={onReset}>
              Reset to the live values
            </button>
          </div>
        </>
      ) : null}
      <UnplacedIssues issues={issues.unplaced} />
    </form>
  );
}
