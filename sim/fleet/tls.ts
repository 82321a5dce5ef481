import { generate } from 'selfsigned';

export interface FleetTls {
  caCert: string;
  cert: string;
  key: string;
}

/**
 * A throwaway CA and one serving certificate for 127.0.0.1/localhost, made at fleet start. The
 * simulator speaks HTTPS because kubectl (client-go) sends no bearer token over plain HTTP; with a
 * CA in the kubeconfig, kubectl and client-node verify the server as they would a real cluster.
 */
export async function makeFleetTls(): Promise<FleetTls> {
  const notBeforeDate = new Date(Date.now() - 60 * 60 * 1000);
  const notAfterDate = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
  const ca = await generate([{ name: 'commonName', value: 'autoscope-sim-ca' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'kube-apiserver' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { caCert: ca.cert, cert: server.cert, key: server.private };
}
