import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { Fleet } from './fleet';

it('stopping a cluster ends connections still in their TLS handshake (server.close would wait out the 120 s handshake timeout)', async () => {
  const fleet = new Fleet({ clusters: [{ name: 'a', profile: 'kubernetes' }], dataDir: mkdtempSync(path.join(os.tmpdir(), 'sim-close-')) });
  await fleet.start();
  const cluster = fleet.cluster('a');
  // A client that connected and has not sent its ClientHello yet.
  const socket = net.connect(cluster.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const started = Date.now();
  await fleet.stop();
  await closed;
  expect(Date.now() - started).toBeLessThan(5_000);
});
