import { startSignIn } from '@/server/access/sign-in';
import { handle } from '@/server/http/handle';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle((req) => startSignIn(req));
