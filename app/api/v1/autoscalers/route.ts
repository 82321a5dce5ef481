import { AutoscalerQuerySchema } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { queryObject } from '@/server/http/params';
import { getAutoscope } from '@/server/runtime';
import { listAutoscalers } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req) =>
  listAutoscalers(getAutoscope(), AutoscalerQuerySchema.parse(queryObject(req.nextUrl)), await requireViewer(req)),
);
