import type { StatsResponse } from '@/lib/api';
import { StatsQuerySchema } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { queryObject } from '@/server/http/params';
import { getAutoscope } from '@/server/runtime';
import { stats } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req): Promise<StatsResponse> =>
  stats(getAutoscope(), await requireViewer(req), StatsQuerySchema.parse(queryObject(req.nextUrl))),
);
