import type { Browser } from 'playwright-core';
import { DEMO, launchBrowser } from './browser';
import { ApiClient } from './console';
import { startServer, type RunningServer } from './server';

/** A server, a browser and the demo administrator's API client, for a test that makes its own readings. */
export interface QuietConsole {
  server: RunningServer;
  browser: Browser;
  api: ApiClient;
  /** The first demo plant by name. */
  plant: { id: number; name: string };
  /** The plant's first device of a type, by name. */
  deviceOf: (type: string) => Promise<{ id: number; name: string }>;
  /** The device's signals with their keys. */
  signalsOf: (deviceId: number) => Promise<{ id: number; name: string; key: string }[]>;
  stop: () => Promise<void>;
}

/**
 * Starts the built server without the simulator and the Modbus poller, so that the only readings are the
 * ones the test sends, launches a browser beside it and signs the demo administrator in over the API.
 */
export async function openQuietConsole(): Promise<QuietConsole> {
  const [server, browser] = await Promise.all([
    startServer({ SIMULATOR: 'false', MODBUS_POLLER: 'false' }),
    launchBrowser(),
  ]);
  const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
  const plant = (await api.get<{ items: { id: number; name: string }[] }>('plants?sort=name&pageSize=200'))
    .items[0]!;
  return {
    server,
    browser,
    api,
    plant,
    deviceOf: async (type) =>
      (
        await api.get<{ items: { id: number; name: string }[] }>(
          `devices?plant_id=${plant.id}&type=${type}&sort=name&pageSize=200`,
        )
      ).items[0]!,
    signalsOf: async (deviceId) =>
      (
        await api.get<{ items: { id: number; name: string; key: string }[] }>(
          `signals?device_id=${deviceId}&pageSize=200`,
        )
      ).items,
    async stop() {
      await browser.close();
      await server.stop();
    },
  };
}
