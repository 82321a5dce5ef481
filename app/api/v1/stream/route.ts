import { handle } from '@/server/http/handle';
import { getAutoscope } from '@/server/runtime';
import { openStream } from '@/server/services/stream-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle((req) => openStream(getAutoscope(), req.signal));
