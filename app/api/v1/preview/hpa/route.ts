import type { HpaPreviewResponse } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { readJsonBody } from '@/server/http/params';
import { getAutoscope } from '@/server/runtime';
import { previewHpa } from '@/server/services/explain-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle(async (req): Promise<HpaPreviewResponse> =>
  previewHpa(getAutoscope(), await readJsonBody(req), await requireViewer(req)),
);
