import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { getAutoscope } from '@/server/runtime';
import { openStream } from '@/server/services/stream-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req) => openStream(getAutoscope(), req.signal, await requireViewer(req)));
