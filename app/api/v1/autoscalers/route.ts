import { listAutoscalersGet } from '@/server/http/fleet-reads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Also answered by the server's fast path (server/http/fast-path.ts) with this same handler. */
export const GET = listAutoscalersGet;
