export {
  BEHAVIOR_ANNOTATION,
  HPA_VERSIONS,
  toV2Hpa,
  V1_CONDITIONS_ANNOTATION,
  V1_CURRENT_METRICS_ANNOTATION,
  V1_METRICS_ANNOTATION,
} from './convert-hpa';
export { looksLikeDescribe, normalizeLines, parseConditionsTable, parseDescribe, parseMetricLine } from './describe-hpa';
export type { DescribedHpa } from './describe-hpa';
export { diagnoseDescribe, diagnoseObjects, flattenObjects, NOT_IN_PASTE, PASTE_CLUSTER } from './diagnose';
export type { DiagnoseResult } from './diagnose';
export { findCredential } from './secrets';
