'use client';

import type { AutoscalerKind, Health } from '@/lib/api';
import type { FilterParams } from '../api/paths';
import { apiPaths } from '../api/paths';
import { healthLabel } from '../ui/health';
import { DebouncedInput } from './debounced-input';
import type { FilterKey, TriageSort } from './triage-state';
import { exportFilter, hasFilters, noFilters, triageSortOptions, triageSorts } from './triage-state';
import styles from './triage.module.css';

const kinds: readonly AutoscalerKind[] = ['HorizontalPodAutoscaler', 'MachineAutoscaler', 'FederatedHPA'];
const healths: readonly Health[] = ['failing', 'degraded', 'unknown', 'ok'];

interface Option {
  value: string;
  label: string;
}

/** A select whose options always include the URL's value, even a pasted one it does not list (e.g. `a,b`). */
function FilterSelect({
  id,
  label,
  value,
  all,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  all: string;
  options: readonly Option[];
  onChange: (value: string) => void;
}): React.JSX.Element {
  const listed = value === '' || options.some((o) => o.value === value);
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {listed ? null : <option value={value}>{value}</option>}
      </select>
    </div>
  );
}

export interface TriageFiltersProps {
  filter: FilterParams;
  sort: string;
  /** The orders offered; the triage queue's by default. The first is the default and leaves the URL. */
  sortChoices?: readonly Option[];
  /** What the form filters, for screen readers. */
  label?: string;
  clusters: readonly string[];
  namespaces: readonly string[];
  reasons: readonly string[];
  searchRef: React.RefObject<HTMLInputElement | null>;
  onChange: (changes: Partial<Record<FilterKey | 'sort' | 'group', string | null>>) => void;
}

const triageSortChoices: readonly Option[] = triageSorts.map((s: TriageSort) => ({ value: s, label: triageSortOptions[s].label }));

/** Search, filters and sort of the triage queue or the autoscaler list (all in the URL), and the export of what they select. */
export function TriageFilters({
  filter,
  sort,
  sortChoices = triageSortChoices,
  label = 'Filter the triage queue',
  clusters,
  namespaces,
  reasons,
  searchRef,
  onChange,
}: TriageFiltersProps): React.JSX.Element {
  const exported = exportFilter(filter);
  const defaultSort = sortChoices[0]?.value;
  return (
    <form role="search" aria-label={label} className={styles.filters} onSubmit={(e) => e.preventDefault()}>
      <div className={`${styles.field} ${styles.search}`}>
        <label htmlFor="triage-q">
          Search <kbd>/</kbd>
        </label>
        <DebouncedInput
          id="triage-q"
          ref={searchRef}
          type="search"
          placeholder="name, namespace, cluster, target, reason"
          value={filter.q ?? ''}
          onCommit={(q) => onChange({ q })}
          onKeyDown={(e) => {
            // Escape leaves the box and keeps the filter; a search input would otherwise clear itself.
            if (e.key === 'Escape') {
              e.preventDefault();
              e.currentTarget.blur();
            }
          }}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <FilterSelect
        id="triage-kind"
        label="Kind"
        value={filter.kind ?? ''}
        all="All kinds"
        options={kinds.map((k) => ({ value: k, label: k }))}
        onChange={(kind) => onChange({ kind })}
      />
      <FilterSelect
        id="triage-cluster"
        label="Cluster"
        value={filter.cluster ?? ''}
        all="All clusters"
        options={clusters.map((c) => ({ value: c, label: c }))}
        onChange={(cluster) => onChange({ cluster })}
      />
      <div className={styles.field}>
        <label htmlFor="triage-namespace">Namespace</label>
        <DebouncedInput
          id="triage-namespace"
          list="triage-namespaces"
          value={filter.namespace ?? ''}
          onCommit={(namespace) => onChange({ namespace })}
          placeholder="any"
          autoComplete="off"
          spellCheck={false}
        />
        <datalist id="triage-namespaces">
          {namespaces.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </div>
      <FilterSelect
        id="triage-health"
        label="Health"
        value={filter.health ?? ''}
        all="Any health"
        options={healths.map((h) => ({ value: h, label: healthLabel[h] }))}
        onChange={(health) => onChange({ health })}
      />
      <div className={styles.field}>
        <label htmlFor="triage-reason">Reason</label>
        <DebouncedInput
          id="triage-reason"
          list="triage-reasons"
          value={filter.reason ?? ''}
          onCommit={(reason) => onChange({ reason })}
          placeholder="any"
          autoComplete="off"
          spellCheck={false}
        />
        <datalist id="triage-reasons">
          {reasons.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
      </div>
      <div className={styles.field}>
        <label htmlFor="triage-sort">Sort</label>
        <select id="triage-sort" value={sort} onChange={(e) => onChange({ sort: e.target.value === defaultSort ? null : e.target.value })}>
          {sortChoices.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.actions}>
        <button type="button" disabled={!hasFilters(filter)} onClick={() => onChange(noFilters)}>
          Clear filters
        </button>
        <a className="button" href={apiPaths.autoscalersExport(exported, 'csv')} download data-testid="export-csv">
          Export CSV
        </a>
        <a className="button" href={apiPaths.autoscalersExport(exported, 'json')} download data-testid="export-json">
          Export JSON
        </a>
      </div>
    </form>
  );
}
