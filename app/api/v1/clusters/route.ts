import type { ClusterListResponse } from '@/lib/api';
import { requireViewer } from '@/server/access/access';
import { handle } from '@/server/http/handle';
import { getAutoscope } from '@/server/runtime';
import { listClusters } from '@/server/services/fleet-service';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (req): Promise<ClusterListResponse> => listClusters(getAutoscope(), await requireViewer(req)));
