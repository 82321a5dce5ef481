'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '../ui/link';
import { useEffect, useMemo, useRef, useState } from 'react';
import { parseAutoscalerId } from '@/lib/api';
import { ApiError } from '../api/fetch-json';
import { autoscalerHref } from '../api/paths';
import type { FederationAnswer } from '../queries/keys';
import { autoscalerListQuery, federationPreviewInputsQuery, federationPreviewQuery } from '../queries/keys';
import { PartialFailureBanner } from '../ui/partial-failure-banner';
import { EmptyState, QueryError, Skeleton } from '../ui/query-state';
import { ClockText } from '../ui/time-zone';
import type { GroupedIssues } from './field-issues';
import { groupIssues, isFieldError } from './field-issues';
import { cellKey, FederationFormPanel, scalarKey } from './federation-form';
import { federationPresets, formFromPreset } from './federation-presets';
import { FederationResults } from './federation-results';
import type { FederationForm, FederationTab, FieldRef } from './federation-state';
import {
  blankForm,
  federationFormParams,
  federationRequest,
  federationTabLabel,
  federationTabs,
  formFromLive,
  hasFormInUrl,
  readFederationForm,
  seedPolicyOf,
} from './federation-state';
import { toFederationView } from './federation-view';
import styles from './preview.module.css';
import { ShippedNote } from './shipped-note';
import { useDebouncedValue, useUrlForm } from './use-url-form';

function issueCount(issues: GroupedIssues): number {
  let n = issues.unplaced.length;
  for (const m of issues.byKey.values()) n += m.length;
  return n;
}

function refKey(ref: FieldRef): string | null {
  if (ref.kind === 'cell') return cellKey(ref.row, ref.field);
  if (ref.kind === 'scalar') return scalarKey(ref.key);
  return null;
}

function Tabs({ tab, onChange }: { tab: FederationTab; onChange: (tab: FederationTab) => void }): React.JSX.Element {
  const onKeyDown = (e: React.KeyboardEvent): void => {
    const i = federationTabs.indexOf(tab);
    const next =
      e.key === 'ArrowRight'
        ? federationTabs[(i + 1) % federationTabs.length]
        : e.key === 'ArrowLeft'
          ? federationTabs[(i - 1 + federationTabs.length) % federationTabs.length]
          : null;
    if (!next) return;
    e.preventDefault();
    onChange(next);
    document.getElementById(`fed-tab-${next}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Federation previews" className={styles.tabs} onKeyDown={onKeyDown}>
      {federationTabs.map((t) => (
        <button
          key={t}
          id={`fed-tab-${t}`}
          type="button"
          role="tab"
          aria-selected={tab === t}
          aria-controls="fed-panel"
          tabIndex={tab === t ? 0 : -1}
          className={styles.tab}
          onClick={() => onChange(t)}
        >
          {federationTabLabel[t]}
        </button>
      ))}
    </div>
  );
}

/**
 * `/preview/federation`: how a FederatedHPA's replicas (Karmada's shipped scheduler) or min/max bounds (the seed
 * proposal's policies) split across member clusters, before and after, from a live object or from scratch.
 */
export function FederationPreview(): React.JSX.Element {
  const [form, setForm, params] = useUrlForm(readFederationForm, federationFormParams);
  const live = useQuery(autoscalerListQuery({ kind: 'FederatedHPA', limit: 500, sort: 'name' }));

  // `?id=` alone (a link from the detail page) fills the form from the live object once its inputs arrive; with a
  // form in the URL (a reload, a shared link) the URL wins.
  const [pendingLoad, setPendingLoad] = useState<string | null>(() => (form.id && !hasFormInUrl(params) ? form.id : null));
  const liveRef = form.id ? parseAutoscalerId(form.id) : null;
  const isFederated = liveRef?.kind === 'FederatedHPA';
  const liveInputs = useQuery({
    ...federationPreviewInputsQuery(liveRef ?? { cluster: '-', kind: 'FederatedHPA', namespace: '-', name: '-' }),
    enabled: isFederated,
  });
  useEffect(() => {
    if (pendingLoad && liveInputs.data?.id === pendingLoad) {
      const inputs = liveInputs.data;
      setForm((f) => formFromLive(inputs, f));
      setPendingLoad(null);
    }
  }, [pendingLoad, liveInputs.data, setForm]);
  const startLive = (id: string): void => {
    setForm((f) => ({ ...f, id }));
    setPendingLoad(id);
  };

  const settled = useDebouncedValue(form, 200);
  const request = useMemo(() => federationRequest(settled), [settled]);
  const preview = useQuery({ ...federationPreviewQuery(request.operation, request.body), placeholderData: keepPreviousData });
  const issues = useMemo(() => groupIssues(preview.error, (path) => refKey(request.locate(path))), [preview.error, request]);

  // The last answer that rendered, kept (dimmed) while the inputs have a mistake.
  const lastGood = useRef<FederationAnswer | null>(null);
  if (preview.data) lastGood.current = preview.data;
  const shown = preview.data ?? (isFieldError(preview.error) ? lastGood.current : null);
  const view = shown ? toFederationView(shown) : null;

  const setTab = (tab: FederationTab): void => setForm((f) => ({ ...f, tab }));
  const liveItems = live.data?.items ?? [];
  const liveObject = liveItems.find((a) => a.id === form.id);

  let results: React.ReactNode;
  if (preview.error && !isFieldError(preview.error)) results = <QueryError error={preview.error} retry={() => void preview.refetch()} />;
  else if (!view)
    results = preview.error ? (
      <EmptyState title="Some inputs are missing or out of range">
        <p>
          {federationTabLabel[form.tab]} needs {issueCount(issues)} more {issueCount(issues) === 1 ? 'value' : 'values'}, marked on the
          left. A live binding has no per-cluster HPA bounds or utilization: fill them in, or load one of the seed proposal’s worked
          examples.
        </p>
      </EmptyState>
    ) : (
      <Skeleton rows={8} height={24} />
    );
  else
    results = (
      <>
        {preview.error ? (
          <div className="banner banner-warn" role="status" data-testid="inputs-invalid">
            <strong>These inputs cannot be previewed.</strong> {preview.error instanceof ApiError ? preview.error.message : ''} Showing the
            last valid preview, dimmed; the inputs at fault are marked on the left.
          </div>
        ) : null}
        <FederationResults view={view} stale={Boolean(preview.error) || (preview.isPlaceholderData && preview.isFetching)} />
      </>
    );

  return (
    <div>
      {live.data ? <PartialFailureBanner clusters={live.data.clusters} /> : null}
      {form.id && !isFederated ? (
        <div className="banner banner-bad" role="alert">
          <strong>{form.id} is not a FederatedHPA id</strong> (cluster/FederatedHPA/namespace/name). The form below is not tied to a live
          object.
        </div>
      ) : null}
      {pendingLoad && liveInputs.error ? (
        <div className="banner banner-bad" role="alert" data-testid="live-error">
          <strong>Could not read {pendingLoad}.</strong> {liveInputs.error.message}{' '}
          <button type="button" onClick={() => void liveInputs.refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {form.id ? (
        <div className="banner banner-info" data-testid="live-source">
          Started from the live FederatedHPA{' '}
          {liveRef ? (
            <Link href={autoscalerHref(liveRef)} className="mono">
              {liveRef.namespace}/{liveRef.name}
            </Link>
          ) : (
            <span className="mono">{form.id}</span>
          )}{' '}
          in <span className="chip">{liveRef?.cluster ?? '—'}</span>
          {liveObject?.federation ? <> — live strategy {liveObject.federation.strategy}</> : null}
          {liveInputs.data ? (
            <>
              , read <ClockText at={liveInputs.data.fetchedAt} />
            </>
          ) : null}
          .{' '}
          {liveInputs.data?.notes.map((n, i) => (
            <span key={i} className="muted">
              {n}{' '}
            </span>
          ))}
        </div>
      ) : null}
      <Tabs tab={form.tab} onChange={setTab} />
      <div id="fed-panel" role="tabpanel" aria-labelledby={`fed-tab-${form.tab}`} className={styles.layout}>
        <FederationFormPanel
          form={form}
          setForm={setForm}
          issues={issues}
          live={liveItems}
          loading={pendingLoad !== null && liveInputs.isFetching}
          onStartLive={startLive}
          onStartBlank={() => {
            setPendingLoad(null);
            setForm((f): FederationForm => ({ ...blankForm(), tab: f.tab }));
          }}
          onPreset={(key) => {
            const preset = federationPresets.find((p) => p.key === key);
            if (!preset) return;
            setPendingLoad(null);
            setForm(formFromPreset(preset));
          }}
        />
        <div className={styles.results}>
          {results}
          <ShippedNote
            model={form.tab === 'assign' ? form.model : 'seed'}
            tab={form.tab}
            seedPolicy={seedPolicyOf(form)}
            strategy={form.policy}
          />
        </div>
      </div>
    </div>
  );
}
