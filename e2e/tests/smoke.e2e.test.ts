import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, login, newPage } from '../src/browser';
import { startServer, type RunningServer } from '../src/server';

describe('smoke: the built console against the real server', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs the admin in and shows the menu', async () => {
    const { context, page } = await newPage(browser, server.url);
    await login(page, DEMO.admin);
    expect(await page.getByTestId('menu').isVisible()).toBe(true);
    await context.close();
  });
});
