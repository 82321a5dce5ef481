import type { HealthResponse } from '@/lib/api';
import { handle } from '@/server/http/handle';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle((): HealthResponse => ({ status: 'ok' }));
