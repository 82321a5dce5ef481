import { optionalViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { getAutoscope } from '@/server/runtime';
import { readiness } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req) => {
  // A probe is not signed in: it gets the status code and no cluster names.
  const viewer = await optionalViewer(req);
  const { body, ready } = readiness(getAutoscope(), viewer);
  return Response.json(body, { status: ready ? 200 : 503, headers: { 'cache-control': 'no-store' } });
});
