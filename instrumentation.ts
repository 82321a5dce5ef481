/**
 * Next calls `register()` once when a server process starts. In the Node.js runtime (not during
 * `next build`), it starts Autoscope's backend, its metrics endpoint and its graceful shutdown
 * (server/lifecycle.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startLifecycle } = await import('./server/lifecycle');
  await startLifecycle();
}
