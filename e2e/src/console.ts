import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import {
  CONSOLE_ROUTES,
  LOCALES,
  hasPermission,
  type ConsoleRoute,
  type Locale,
  type Permission,
} from '@solar/shared';
import { collectPageErrors, newPage, PAGE_LOAD_TIMEOUT, screenshot } from './browser';
import { repoRoot } from './server';

/** Interface texts of one locale, read from packages/i18n/locales/<locale>.json. */
const messages = new Map<Locale, Record<string, unknown>>();

/** The text of an i18n key in a locale, as the locale file has it (throws for a missing key). */
export function t(locale: Locale, key: string): string {
  let bundle = messages.get(locale);
  if (!bundle) {
    const file = path.join(repoRoot, 'packages/i18n/locales', `${locale}.json`);
    bundle = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    messages.set(locale, bundle);
  }
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], bundle);
  if (typeof value !== 'string') throw new Error(`no text for ${key} in ${locale}`);
  return value;
}
/** Turkish text of a key (the default locale). */
export const tr = (key: string): string => t('tr_TR', key);
export { LOCALES };

/** Routes of the table the permissions allow in the menu, in table order (what the menu must list). */
export function menuRoutesFor(permissions: readonly Permission[]): ConsoleRoute[] {
  return CONSOLE_ROUTES.filter((r) => r.inMenu && hasPermission(permissions, r.page, 'view'));
}

/** `data-testid` of a route's menu entry (`/map` → `menu-map`). */
export const menuTestId = (routePath: string): string => `menu-${routePath.replace(/^\//, '')}`;

/** A concrete URL for a route pattern: every `:param` becomes `1`. */
export const concretePath = (routePath: string): string => routePath.replace(/:[A-Za-z]+/g, '1');

/** The operator's view permissions (docs/spec-differences.md, demo data). */
export const OPERATOR_VIEW_PAGES = ['map', 'plant', 'alarm', 'fault', 'report', 'dashboard'] as const;

/**
 * A session token for the account, from POST /api/users/login: a sign-in of its own for every page. One
 * token shared by many pages would not survive them: each page's restore refreshes it, and a refresh
 * retires the token it replaces (docs/security.md, "Accounts and sessions").
 */
export async function tokenFor(
  baseURL: string,
  account: { email: string; password: string },
): Promise<string> {
  return (await ApiClient.login(baseURL, account.email, account.password)).sessionToken;
}

/**
 * Runs a test body on a fresh context and page; on failure saves a screenshot named after the test,
 * then rethrows. The context is always closed.
 *
 * With `signedInAs`, the context starts with that account's session token in localStorage (as the
 * login form leaves it) and the page opens `/` and waits for the menu: the console restores the session
 * through the real API. The login form itself is covered by login.e2e.test.ts; this saves its time.
 */
export async function withPage(
  browser: Browser,
  baseURL: string,
  name: string,
  body: (page: Page) => Promise<void>,
  signedInAs?: { email: string; password: string },
): Promise<void> {
  let context: BrowserContext;
  let page: Page;
  if (signedInAs) {
    const token = await tokenFor(baseURL, signedInAs);
    context = await browser.newContext({
      baseURL,
      viewport: { width: 1440, height: 900 },
      locale: 'tr-TR',
      storageState: {
        cookies: [],
        origins: [{ origin: baseURL, localStorage: [{ name: 'token', value: token }] }],
      },
    });
    page = await context.newPage();
    page.on('pageerror', (error) => console.error('[page error]', error.message));
  } else {
    ({ context, page } = await newPage(browser, baseURL));
  }
  context.setDefaultTimeout(10_000);
  try {
    if (signedInAs) {
      await page.goto('/');
      await page.getByTestId('menu').waitFor({ timeout: PAGE_LOAD_TIMEOUT });
    }
    await body(page);
  } catch (error) {
    await screenshot(page, `failed-${name}`).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

/** Waits until the locator's trimmed text equals (or matches) the expected text. */
export async function expectText(
  locator: Locator,
  expected: string | RegExp,
  timeout = 10_000,
): Promise<void> {
  await vi.waitFor(
    async () => {
      const text = (await locator.textContent({ timeout }))?.trim() ?? '';
      if (typeof expected === 'string') expect(text).toBe(expected);
      else expect(text).toMatch(expected);
    },
    { timeout, interval: 50 },
  );
}

/** Waits until the page's path (without query) equals the expected one. */
export async function expectPath(page: Page, expected: string, timeout = 10_000): Promise<void> {
  await page.waitForURL((url) => url.pathname === expected, { timeout });
}

/** A localStorage value of the page's origin. */
export const storage = (page: Page, key: string): Promise<string | null> =>
  page.evaluate((k) => window.localStorage.getItem(k), key);

/** The `data-testid`s of the menu entries, in order. */
export const menuEntries = (page: Page): Promise<string[]> =>
  page
    .getByTestId('menu')
    .locator('[data-testid^="menu-"]')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid') ?? ''));

/** The field error under the form item that holds the input with this test id. */
export const fieldError = (page: Page, testId: string): Locator =>
  page.locator('.ant-form-item', { has: page.getByTestId(testId) }).locator('.ant-form-item-explain-error');

/** The global toast with this text. */
export const toast = (page: Page, text: string): Locator =>
  page.locator('.ant-message-notice').filter({ hasText: text });

// ---------------------------------------------------------------- JWT

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The claims of a JWT (no signature check). */
export function decodeJwt(
  token: string,
): Record<string, unknown> & { exp: number; iat: number; sub: string } {
  const part = token.split('.')[1];
  if (!part) throw new Error(`not a JWT: ${token}`);
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as ReturnType<typeof decodeJwt>;
}

/** Signs an HS256 JWT with the given claims and secret (to forge expired or foreign tokens). */
export function signJwt(claims: Record<string, unknown>, secret: string): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64url(JSON.stringify(claims));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The secret the server generated in its data directory (no JWT_SECRET in the test environment). */
export const serverJwtSecret = (dataDir: string): string =>
  readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();

// ---------------------------------------------------------------- HTTP

/** A signed-in API client over fetch: anti-forgery cookie and header, bearer token. */
export class ApiClient {
  private cookie = '';
  private xsrf = '';
  private token = '';

  /** The session token this client signed in with. */
  get sessionToken(): string {
    return this.token;
  }

  constructor(private readonly baseUrl: string) {}

  /** Gets the XSRF-TOKEN cookie from /api/health and signs in. */
  static async login(baseUrl: string, email: string, password: string): Promise<ApiClient> {
    const client = new ApiClient(baseUrl);
    const health = await fetch(`${baseUrl}/api/health`);
    const cookie = health.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
    if (!cookie) throw new Error('no XSRF-TOKEN cookie from /api/health');
    client.cookie = cookie.split(';')[0]!;
    client.xsrf = client.cookie.slice('XSRF-TOKEN='.length);
    const { token } = await client.request<{ token: string }>('POST', 'users/login', { email, password });
    client.token = token;
    return client;
  }

  async request<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { cookie: this.cookie, 'x-xsrf-token': this.xsrf };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}/api/${apiPath}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${apiPath}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The anti-forgery cookie and header this client sends, for a raw call made without it. */
  xsrfHeaders(): Record<string, string> {
    return { cookie: this.cookie, 'x-xsrf-token': this.xsrf };
  }

  get = <T>(apiPath: string) => this.request<T>('GET', apiPath);
  post = <T>(apiPath: string, body: unknown) => this.request<T>('POST', apiPath, body);
}

export interface ApiUser {
  id: number;
  name: string;
  surname: string;
  username: string;
  telephone: string;
  email: string;
}

/** The id of the user with this email (GET /api/users). */
export async function userIdByEmail(api: ApiClient, email: string): Promise<number> {
  const users = await api.get<ApiUser[]>('users');
  const user = users.find((u) => u.email === email);
  if (!user) throw new Error(`no user ${email}`);
  return user.id;
}

// ---------------------------------------------------------------- Mail

/** Decodes a quoted-printable body: soft line breaks and =XX escapes (bytes → UTF-8). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The decoded text of every MIME part of a raw .eml message (quoted-printable, base64 or plain). */
export function emlText(eml: string): string {
  return eml
    .split(/^--.*$/m)
    .map((part) => {
      const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
      const body = rest.join('\n\n');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) return decodeQuotedPrintable(body);
      if (/content-transfer-encoding:\s*base64/i.test(head))
        return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      return part;
    })
    .join('\n');
}

/** The reset-password link of the newest outbox message addressed to `email`. */
export function resetLinkFor(outbox: readonly string[], email: string): string | undefined {
  const mails = outbox.filter((eml) => new RegExp(`^To:.*${email.replace(/[.+]/g, '\\$&')}`, 'im').test(eml));
  const last = mails.at(-1);
  return last ? /https?:\/\/[^\s"<>]+\/reset-password\/[A-Za-z0-9_-]+/.exec(emlText(last))?.[0] : undefined;
}

/**
 * Opens an Ant Design select by its test id and picks the visible option with this text, unless the select
 * already shows it. The dropdown animates in and out: retried until the select shows the option. `escape`
 * closes a dropdown that stays open after a pick (multiple selects); not in a drawer, which Escape closes.
 */
export async function pickOption(
  page: Page,
  testId: string,
  option: string,
  { escape = false }: { escape?: boolean } = {},
): Promise<void> {
  const select = page.getByTestId(testId);
  await vi.waitFor(
    async () => {
      const shown = await select
        .locator('.ant-select-content, .ant-select-selection-item')
        .first()
        .textContent();
      if (!shown?.includes(option)) {
        if ((await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').count()) === 0)
          await select.click();
        await page
          .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
          .filter({ hasText: option })
          .first()
          .click({ timeout: 2_000 });
      }
      expect(await select.textContent()).toContain(option);
    },
    { timeout: 10_000, interval: 200 },
  );
  if (escape) await page.keyboard.press('Escape');
}

/**
 * A new page at `width` (390 px unless said) in a language and theme, signed in as `account` unless it is
 * null, opened on `path`; `errors` collects its console and page errors.
 */
export async function openAs(
  browser: Browser,
  baseURL: string,
  account: { email: string; password: string } | null,
  path: string,
  options: { locale: string; theme: 'light' | 'dark'; width?: number },
): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const token = account ? [{ name: 'token', value: await tokenFor(baseURL, account) }] : [];
  const context = await browser.newContext({
    baseURL,
    viewport: { width: options.width ?? 390, height: 844 },
    storageState: {
      cookies: [],
      origins: [
        {
          origin: baseURL,
          localStorage: [
            ...token,
            { name: 'locale', value: options.locale },
            { name: 'theme', value: options.theme },
          ],
        },
      ],
    },
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(path);
  return { page, errors, close: () => context.close() };
}
