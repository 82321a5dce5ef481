import { parseArgs } from 'node:util';
import { demoUsers, startTestProvider } from './test-provider';

const usage = `tsx sim/identity/cli.ts --port P --app http://127.0.0.1:3000

Starts the demo OpenID Connect provider on 127.0.0.1:P for an Autoscope at --app (its /auth/callback and
/auth/signed-out are the client's redirect URLs), and prints the issuer, client id and secret.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '5556' },
      app: { type: 'string', default: 'http://127.0.0.1:3000' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.info(usage);
    return;
  }
  const app = values.app.replace(/\/$/, '');
  const provider = await startTestProvider({
    port: Number(values.port),
    redirectUris: [`${app}/auth/callback`],
    postLogoutRedirectUris: [`${app}/auth/signed-out`],
  });
  console.info(`[identity] demo users (any password): ${demoUsers.map((u) => `${u.id} (${u.groups.join(', ')})`).join(', ')}`);
  console.info(`[identity] client: ${provider.clientId} ${provider.clientSecret}`);
  console.info(`[identity] issuer: ${provider.issuer}`);
  const stop = (): void => {
    void provider.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(`[identity] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
