import type { DiagnoseResponse } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { diagnosePaste } from '@/server/services/diagnose-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Diagnose a paste (text/plain): reads no fleet data and sends nothing to a cluster, but only for a signed-in person. */
export const POST = handle(async (req): Promise<DiagnoseResponse> => {
  await requireViewer(req);
  return diagnosePaste(req, Date.now());
});
