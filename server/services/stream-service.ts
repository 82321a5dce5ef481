import 'server-only';
import type { StreamMessage } from '@/lib/api';
import { canSeeAutoscalerId, canSeeCluster } from '@/lib/access';
import type { Viewer } from '../access/access';
import type { Autoscope } from '../runtime';
import { visibleClusterStatuses } from './guards';

const encoder = new TextEncoder();
/** Queued bytes past which a client that does not read is dropped rather than buffered without bound. */
const maxQueuedBytes = 1024 * 1024;

/** Server-Sent Events: which ids changed and cluster state changes (of what the viewer may see), with a heartbeat every 15 s. */
export function openStream(app: Autoscope, signal: AbortSignal, viewer: Viewer): Response {
  const { scope } = viewer;
  let cleanup = (): void => undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const send = (message: StreamMessage): void => {
          if ((controller.desiredSize ?? 0) < -maxQueuedBytes) {
            cleanup();
            controller.error(new Error('slow client dropped'));
            return;
          }
          controller.enqueue(encoder.encode(`event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`));
        };
        controller.enqueue(encoder.encode('retry: 3000\n\n'));
        for (const cluster of visibleClusterStatuses(app, viewer)) send({ type: 'cluster', cluster });
        const unsubscribe = app.bus.subscribe(
          send,
          scope.all ? undefined : { id: (id) => canSeeAutoscalerId(scope, id), cluster: (name) => canSeeCluster(scope, name) },
        );
        const heartbeat = setInterval(() => send({ type: 'heartbeat', at: new Date().toISOString() }), 15_000);
        const close = (): void => {
          cleanup();
          try {
            controller.close();
          } catch {
            // already closed
          }
        };
        cleanup = () => {
          unsubscribe();
          clearInterval(heartbeat);
          app.streams.delete(close);
        };
        app.streams.add(close);
        signal.addEventListener('abort', close);
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: maxQueuedBytes, size: (chunk) => chunk.byteLength },
  );
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
