import 'server-only';
import type { Autoscaler, ClusterStatus } from '@/lib/api';
import { toCsv } from '../fleet/query';

/** A list view as a download: CSV, or the items with their cluster states as pretty JSON. */
export function exportAutoscalers(items: Autoscaler[], format: 'csv' | 'json', clusters: ClusterStatus[]): Response {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  if (format === 'csv') {
    return new Response(toCsv(items), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="autoscalers-${stamp}.csv"`,
        'cache-control': 'no-store',
      },
    });
  }
  return new Response(JSON.stringify({ items, total: items.length, clusters, generatedAt: new Date().toISOString() }, null, 2), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="autoscalers-${stamp}.json"`,
      'cache-control': 'no-store',
    },
  });
}
