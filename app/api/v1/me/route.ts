import type { MeResponse } from '@/lib/api';
import { describeMe } from '@/server/access/sign-in';
import { handle } from '@/server/http/handle';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle((req): Promise<MeResponse> => describeMe(req));
