import type { ExplainResponse } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import type { AutoscalerRouteContext } from '@/server/http/params';
import { autoscalerPath } from '@/server/http/params';
import { getAutoscope } from '@/server/runtime';
import { explain } from '@/server/services/explain-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req, context: AutoscalerRouteContext): Promise<ExplainResponse> =>
  explain(getAutoscope(), await autoscalerPath(context), await requireViewer(req)),
);
