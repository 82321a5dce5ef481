import 'server-only';
/**
 * The fleet's read services, one module each; this index keeps the routes' imports in one place.
 * `guards` (sync and cluster checks, the path → entry lookup), `view-cache` (the kept views of the index, per
 * index version), `list-autoscalers` (paging) with `export-autoscalers` (CSV/JSON downloads), `triage`,
 * `transitions`, `autoscaler-detail` with `kubectl-commands`, `history-window`, `clusters` (list, readiness)
 * and `stats`.
 */
export { getAutoscalerDetail } from './autoscaler-detail';
export { listClusters, readiness } from './clusters';
export { findEntry } from './guards';
export { getHistory } from './history-window';
export { listAutoscalers } from './list-autoscalers';
export { stats } from './stats';
export { listTransitions } from './transitions';
export { getTriage } from './triage';
