import { AutoscalerQuerySchema } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { queryObject } from '@/server/http/params';
import { jsonWithRows } from '@/server/http/row-json';
import { getAutoscope } from '@/server/runtime';
import { listAutoscalers } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req) => {
  const result = listAutoscalers(getAutoscope(), AutoscalerQuerySchema.parse(queryObject(req.nextUrl)), await requireViewer(req));
  // A page's rows are stored DTOs: their JSON is made once and reused by every page that shows them.
  return result instanceof Response ? result : jsonWithRows(result);
});
