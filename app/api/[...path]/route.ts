import { AppError } from '@/server/http/app-error';
import { handle } from '@/server/http/handle';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Any /api path without a route of its own answers the JSON error body, not Next's HTML 404.
const notFound = handle((req): never => {
  throw new AppError('not_found', `no API route ${req.method} ${req.nextUrl.pathname}`);
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
