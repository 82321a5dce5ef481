import { FederationOperationSchema } from '@/lib/api';
import { AppError } from '@/server/http/app-error';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { readJsonBody } from '@/server/http/params';
import { previewFederation } from '@/server/services/federation-preview-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ operation: string }> };

export const POST = handle(async (req, context: Context) => {
  // Pure arithmetic on the body, no fleet data: still only for someone signed in.
  await requireViewer(req);
  const requested = (await context.params).operation;
  const operation = FederationOperationSchema.safeParse(requested);
  if (!operation.success)
    throw new AppError(
      'not_found',
      `no federation preview ${JSON.stringify(requested)}; one of ${FederationOperationSchema.options.join(', ')}`,
    );
  return previewFederation(operation.data, await readJsonBody(req));
});
