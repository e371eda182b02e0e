import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from './server';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const artifactsDir = path.join(repoRoot, 'e2e/artifacts');

/**
 * How long a test gives a full load of the console (a navigation or reload of a signed-in page: its code,
 * the session restore, the first page) before failing, where an action gets the context's 10 s. Measured on
 * the shared two-core machine at a load average of 22, a reload with an expired token took 12.5 s to end in
 * the session-expired message (and 25 s with the renderer's CPU slowed twentyfold): a fixed ceiling under
 * that made the session and shell tests fail only on a busy machine. How fast a page loads is what the
 * benchmarks measure (docs/benchmarks.md), not these tests.
 */
export const PAGE_LOAD_TIMEOUT = 60_000;

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A fresh context (empty localStorage and cookies) whose page errors fail loudly in the log. */
export async function newPage(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1440, height: 900 },
    locale: 'tr-TR',
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  return { context, page };
}

/** Collects a page's console errors (with the URL they name) and page errors, so a test can require none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * Waits until no finite CSS animation or transition is running (Ant Design's drawers, modals and colour
 * eases; a spinner's endless rotation does not count), checked on each frame. A fixed pause is too short on
 * a loaded machine and wasted time on an idle one.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Saves a screenshot to e2e/artifacts (kept out of git) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export const DEMO = {
  admin: { email: 'admin@example.com', password: 'Solar!Admin1' },
  operator: { email: 'operator@example.com', password: 'Solar!Operator1' },
} as const;

/** Signs in through the login form and waits for the console layout. */
export async function login(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(account.email);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
}
