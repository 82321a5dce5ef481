import { handle } from '@/server/http/handle';
import { getAutoscope } from '@/server/runtime';
import { readiness } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(() => {
  const { body, ready } = readiness(getAutoscope());
  return Response.json(body, { status: ready ? 200 : 503, headers: { 'cache-control': 'no-store' } });
});
