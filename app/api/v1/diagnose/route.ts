import type { DiagnoseResponse } from '@/lib/api';
import { handle } from '@/server/http/handle';
import { diagnosePaste } from '@/server/services/diagnose-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Diagnose a paste (text/plain): reads no fleet data and sends nothing to a cluster. */
export const POST = handle(async (req): Promise<DiagnoseResponse> => diagnosePaste(req, Date.now()));
