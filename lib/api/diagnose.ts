import { z } from 'zod';
import { AutoscalerSchema } from './autoscaler';

/** `POST /api/v1/diagnose`: the paste (text/plain) read as the fleet view would read the same objects. */
export const DiagnoseResponseSchema = z.object({
  /** One Autoscaler DTO per autoscaler found, from the same mappers as the list; `cluster` is "paste". */
  items: z.array(AutoscalerSchema),
  /** What the paste lacks or could not be read, each a sentence. */
  unread: z.array(z.string()),
});
export type DiagnoseResponse = z.infer<typeof DiagnoseResponseSchema>;

/** The largest paste accepted: a `kubectl get hpa -A -o yaml` of a few hundred HPAs with managedFields. */
export const DIAGNOSE_MAX_BYTES = 1024 * 1024;
