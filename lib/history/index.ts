export { conditionSince } from './condition-since';
export type { OpenSegment } from './condition-since';
