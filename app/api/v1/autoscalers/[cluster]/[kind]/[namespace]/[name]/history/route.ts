import type { HistoryResponse } from '@/lib/api';
import { HistoryQuerySchema } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import type { AutoscalerRouteContext } from '@/server/http/params';
import { autoscalerPath, queryObject } from '@/server/http/params';
import { getAutoscope } from '@/server/runtime';
import { getHistory } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req, context: AutoscalerRouteContext): Promise<HistoryResponse> =>
  getHistory(getAutoscope(), await autoscalerPath(context), HistoryQuerySchema.parse(queryObject(req.nextUrl)), await requireViewer(req)),
);
