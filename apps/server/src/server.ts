import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';

/** Reads the configuration, builds the app and listens; exits with a clear message on bad config. */
async function main() {
  let config;
  try {
    const here = path.dirname(fileURLToPath(import.meta.url));
    config = loadConfig(process.env, {});
    config.webDist ??= path.resolve(here, '../../web/dist');
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const { app } = await buildApp(config);
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
