import type { StatsResponse } from '@/lib/api';
import { handle } from '@/server/http/handle';
import { getAutoscope } from '@/server/runtime';
import { stats } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle((): StatsResponse => stats(getAutoscope()));
