'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '../ui/link';
import { useMemo, useRef } from 'react';
import { z } from 'zod';
import type { HpaPreviewResponse } from '@/lib/api';
import { HorizontalPodAutoscalerSchema, MetricSpecSchema, parseAutoscalerId } from '@/lib/api';
import { ApiError } from '../api/fetch-json';
import { autoscalerHref } from '../api/paths';
import { autoscalerDetailQuery, autoscalerListQuery, hpaPreviewQuery } from '../queries/keys';
import { HealthBadge } from '../ui/health';
import { PartialFailureBanner } from '../ui/partial-failure-banner';
import { EmptyState, QueryError, Skeleton } from '../ui/query-state';
import { groupIssues, isFieldError } from './field-issues';
import { HpaFormPanel } from './hpa-form';
import type { LiveSpec } from './hpa-results';
import { HpaResults } from './hpa-results';
import { blankHpaForm, hpaFormParams, hpaIssueKey, hpaRequest, readHpaForm } from './hpa-state';
import styles from './preview.module.css';
import { useDebouncedValue, useUrlForm } from './use-url-form';
import { isPinnedAtBound } from '@/lib/triage/pinned-at-bound';

const SpecMetricsSchema = z.array(MetricSpecSchema);
const BehaviorSchema = HorizontalPodAutoscalerSchema.shape.spec.shape.behavior;
const noRef = { cluster: '-', kind: 'HorizontalPodAutoscaler', namespace: '-', name: '-' } as const;

/**
 * `/preview/hpa`: what the HPA controller would decide for a live HPA with other bounds, targets, behavior or
 * load — before and after side by side — and replicas over a played load curve.
 */
export function HpaPreview(): React.JSX.Element {
  const [form, setForm] = useUrlForm(readHpaForm, hpaFormParams);
  const hpas = useQuery(autoscalerListQuery({ kind: 'HorizontalPodAutoscaler', limit: 500, sort: 'name' }));
  const ref = form.id ? parseAutoscalerId(form.id) : null;
  const detail = useQuery({ ...autoscalerDetailQuery(ref ?? noRef), enabled: ref !== null });

  const live = useMemo((): LiveSpec | null => {
    if (!detail.data) return null;
    const a = detail.data.autoscaler;
    const metrics = SpecMetricsSchema.safeParse(detail.data.specMetrics);
    const behavior = BehaviorSchema.safeParse(detail.data.behavior);
    return {
      min: a.minReplicas,
      max: a.maxReplicas ?? 1,
      metrics: metrics.success ? metrics.data : [],
      behavior: behavior.success ? (behavior.data ?? null) : null,
    };
  }, [detail.data]);

  const settled = useDebouncedValue(form, 300);
  const request = useMemo(
    () => (live && settled.id && settled.id === form.id ? hpaRequest({ ...settled, id: settled.id }, live.metrics) : null),
    [live, settled, form.id],
  );
  const preview = useQuery({
    ...hpaPreviewQuery(request ?? { id: '-', changes: {} }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
  const issues = useMemo(() => groupIssues(preview.error, hpaIssueKey), [preview.error]);

  const lastGood = useRef<HpaPreviewResponse | null>(null);
  if (preview.data) lastGood.current = preview.data;
  const candidate = preview.data ?? (isFieldError(preview.error) ? lastGood.current : null);
  const shown = candidate && candidate.id === form.id ? candidate : null;

  const items = hpas.data?.items ?? [];
  const limited = items.filter(isPinnedAtBound).slice(0, 8);
  const start = (id: string): void => setForm(() => blankHpaForm(id || null));

  let results: React.ReactNode;
  if (!form.id) {
    results = (
      <EmptyState title="Start from a live HPA">
        <p>Choose a HorizontalPodAutoscaler on the left. These are pinned at a bound right now:</p>
        {hpas.isPending ? (
          <Skeleton rows={3} />
        ) : limited.length ? (
          <ul className={styles.liveList} style={{ textAlign: 'left' }}>
            {limited.map((a) => (
              <li key={a.id}>
                <HealthBadge health={a.health} compact />
                <button type="button" className={styles.small} onClick={() => start(a.id)}>
                  {a.namespace}/{a.name}
                </button>
                <span className="chip">{a.cluster}</span>
                <span className="muted">{a.conditions.find((c) => c.type === 'ScalingLimited')?.reason}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>No HPA is pinned at a bound in {hpas.data?.clusters.length ?? 0} clusters.</p>
        )}
      </EmptyState>
    );
  } else if (!ref) {
    results = (
      <div className="banner banner-bad" role="alert">
        <strong>{form.id} is not an autoscaler id</strong> (cluster/kind/namespace/name).
      </div>
    );
  } else if (detail.isPending) results = <Skeleton rows={8} height={24} />;
  else if (detail.error) results = <QueryError error={detail.error} retry={() => void detail.refetch()} />;
  else if (preview.error && !isFieldError(preview.error))
    results = <QueryError error={preview.error} retry={() => void preview.refetch()} />;
  else if (!shown || !live)
    results = preview.error ? (
      <EmptyState title="Some inputs are out of range">
        <p>{preview.error instanceof ApiError ? preview.error.message : ''}. The inputs at fault are marked on the left.</p>
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
        <HpaResults
          data={shown}
          live={live}
          loadFactor={form.load ?? 1}
          stale={Boolean(preview.error) || (preview.isPlaceholderData && preview.isFetching)}
        />
      </>
    );

  return (
    <div>
      {hpas.data ? <PartialFailureBanner clusters={hpas.data.clusters} /> : null}
      {detail.data && ref ? (
        <div className="banner banner-info" data-testid="live-source">
          Previewing{' '}
          <Link href={autoscalerHref(ref)} className="mono">
            {ref.namespace}/{ref.name}
          </Link>{' '}
          in <span className="chip">{ref.cluster}</span> — live bounds {live?.min ?? 1}–{live?.max},{' '}
          {detail.data.autoscaler.currentReplicas ?? '?'} replicas now <HealthBadge health={detail.data.autoscaler.health} />
          {detail.data.autoscaler.stale ? <span className="chip">stale</span> : null}
        </div>
      ) : null}
      <div className={styles.layout}>
        <HpaFormPanel
          form={form}
          setForm={setForm}
          issues={issues}
          hpas={items}
          live={live}
          onStart={start}
          onReset={() => setForm((f) => blankHpaForm(f.id))}
        />
        <div className={styles.results}>{results}</div>
      </div>
    </div>
  );
}
