import { AutoscalerQuerySchema } from '@/lib/api';
import { handle } from '@/server/http/handle';
import { queryObject } from '@/server/http/params';
import { getAutoscope } from '@/server/runtime';
import { listAutoscalers } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle((req) => listAutoscalers(getAutoscope(), AutoscalerQuerySchema.parse(queryObject(req.nextUrl))));
