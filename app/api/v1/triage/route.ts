import type { TriageResponse } from '@/lib/api';
import { AutoscalerFilterSchema } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { queryObject } from '@/server/http/params';
import { getAutoscope } from '@/server/runtime';
import { getTriage } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req): Promise<TriageResponse> =>
  getTriage(getAutoscope(), AutoscalerFilterSchema.parse(queryObject(req.nextUrl)), await requireViewer(req)),
);
