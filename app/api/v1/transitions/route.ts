import type { TransitionsResponse } from '@/lib/api';
import { TransitionsQuerySchema } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { queryObject } from '@/server/http/params';
import { getAutoscope } from '@/server/runtime';
import { listTransitions } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req): Promise<TransitionsResponse> =>
  listTransitions(getAutoscope(), TransitionsQuerySchema.parse(queryObject(req.nextUrl)), await requireViewer(req)),
);
