import type { Browser, BrowserContext, Page } from 'playwright-core';
import { vi } from 'vitest';
import { CONSOLE_ROUTES } from '@solar/shared';
import { animationsDone, DEMO, PAGE_LOAD_TIMEOUT } from './browser';
import { ApiClient, expectText, resetLinkFor, tokenFor, tr, userIdByEmail } from './console';
import type { RunningServer } from './server';

export type ThemeName = 'light' | 'dark';
export const THEME_NAMES: readonly ThemeName[] = ['light', 'dark'];

/** One page the layout and accessibility tests open: its address and what shows it is ready. */
export interface PageVisit {
  /** Short name for messages and screenshot files (`plant-management`, `login`). */
  name: string;
  path: string;
  signedIn: boolean;
  /** Waits until the page shows its content, not a spinner. */
  ready: (page: Page) => Promise<void>;
}

/** Waits until the content area has no loading overlay and no page-level spinner. */
export async function settled(page: Page): Promise<void> {
  // The overlay follows the page's queries a frame after it mounts: give it the chance to appear first.
  await page.waitForTimeout(250);
  await page.getByTestId('loading-overlay').waitFor({ state: 'detached' });
  await page.locator('.full-page-spin').waitFor({ state: 'detached' });
  // Ant Design fades and slides things in (tables, tags); let them end before measuring colours.
  await animationsDone(page);
}

/**
 * Raises one active, unacknowledged alarm: a custom rule on an inverter's AC power and a reading above it.
 * The alarm page shows its action buttons (acknowledge, reject) only for such alarms, so without one the
 * checks never see them.
 */
async function raiseActiveAlarm(api: ApiClient): Promise<void> {
  type Named = { id: number; name: string };
  const inverter = (
    await api.get<{ items: Named[] }>('devices?plant_id=1&type=inverter&sort=name&pageSize=1')
  ).items[0]!;
  const signal = (
    await api.get<{ items: (Named & { key: string })[] }>(`signals?device_id=${inverter.id}&pageSize=200`)
  ).items.find((s) => s.key === 'ac_power')!;
  await api.post('alarms/custom/0', {
    name: 'Sayfa denetimi eşiği',
    description: 'Etkin alarm',
    priority_id: 3,
    tag_id: signal.id,
    operant: '>',
    value: 120,
    is_active: true,
  });
  await api.post('telemetry', { points: [{ signal_id: signal.id, ts: Date.now() - 5_000, value: 10 }] });
  await api.post('telemetry', { points: [{ signal_id: signal.id, ts: Date.now() - 1_000, value: 140 }] });
  await vi.waitFor(
    async () => {
      if ((await api.get<unknown[]>('alarms?status_id=1')).length === 0)
        throw new Error('no active alarm yet');
    },
    { timeout: 10_000, interval: 100 },
  );
}

/**
 * What a page shows once its content is there, beyond the title: the single-line diagram's device nodes
 * (laid out after the page settles) and the active alarm's action buttons.
 */
const CONTENT_READY: Record<string, string> = {
  'single-line': '[data-testid="sl-canvas"] .sl-device',
  alarms: '[data-testid^="alarm-reject-"]',
};

/**
 * Every route of the route table with a real id from the seeded demo (plus a fault and an active alarm
 * created here), the profile, and the logged-out pages (login, forgot-password, reset-password with a
 * live link, 404).
 */
export async function pageVisits(server: RunningServer): Promise<PageVisit[]> {
  const api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
  const adminId = await userIdByEmail(api, DEMO.admin.email);
  const fault = await api.post<{ id: number }>('faults/0', {
    plant_id: 1,
    title: 'Layout check fault',
    priority_id: 2,
  });
  const devices = (await api.get<{ items: { id: number; type: string }[] }>('devices?pageSize=200')).items;
  const deviceOf = (type: string) => devices.find((d) => d.type === type)?.id ?? devices[0]!.id;
  const ids: Record<string, number> = {
    deviceId: deviceOf('inverter'),
    faultId: fault.id,
    plantId: 1,
    cameraId: deviceOf('camera'),
    inverterId: deviceOf('inverter'),
  };
  await raiseActiveAlarm(api);
  await api.post('Users/resetpasswordrequest', { email: DEMO.operator.email });
  await vi.waitFor(
    () => {
      if (!resetLinkFor(server.outbox(), DEMO.operator.email)) throw new Error('no reset mail yet');
    },
    { timeout: 10_000, interval: 100 },
  );
  const resetPath = new URL(resetLinkFor(server.outbox(), DEMO.operator.email)!).pathname;

  const consolePages: PageVisit[] = CONSOLE_ROUTES.map((route) => ({
    name: route.path.split('/')[1]!,
    path: route.path.replace(/:([A-Za-z]+)/g, (_, param: string) => {
      const id = ids[param];
      if (id === undefined) throw new Error(`no id for :${param} in ${route.path}`);
      return String(id);
    }),
    signedIn: true,
    ready: async (page) => {
      // A visit can be a full load of the console (the first, or after a theme reload).
      await expectText(page.getByTestId('page-title'), tr(route.titleKey), PAGE_LOAD_TIMEOUT);
      await settled(page);
      const content = CONTENT_READY[route.path.split('/')[1]!];
      if (content) await page.locator(content).first().waitFor();
    },
  }));
  const formReady = (testId: string) => async (page: Page) => {
    await page.getByTestId(testId).waitFor();
    await animationsDone(page);
  };
  return [
    ...consolePages,
    {
      name: 'profile',
      path: `/profile/${adminId}`,
      signedIn: true,
      ready: async (page) => {
        await expectText(page.getByTestId('profile-card-email'), DEMO.admin.email);
        await settled(page);
      },
    },
    { name: 'login', path: '/login', signedIn: false, ready: formReady('login-form') },
    { name: 'forgot-password', path: '/forgot-password', signedIn: false, ready: formReady('forgot-form') },
    { name: 'reset-password', path: resetPath, signedIn: false, ready: formReady('reset-form') },
    { name: 'not-found', path: '/no-such-page', signedIn: false, ready: formReady('not-found-title') },
  ];
}

/**
 * One signed-in and one signed-out page, reused across visits and themes: a console page is reached
 * through the router (no reload) and the theme is switched with the header's toggle, as a user does.
 */
export class Visitor {
  private constructor(
    private readonly pages: Map<boolean, Page>,
    readonly contexts: BrowserContext[],
  ) {}

  /** Opens both contexts in the light theme at the given viewport. */
  static async open(
    browser: Browser,
    server: RunningServer,
    viewport: { width: number; height: number },
  ): Promise<Visitor> {
    const pages = new Map<boolean, Page>();
    const contexts: BrowserContext[] = [];
    for (const signedIn of [true, false]) {
      const localStorage = [{ name: 'theme', value: 'light' }];
      if (signedIn) localStorage.push({ name: 'token', value: await tokenFor(server.url, DEMO.admin) });
      const context = await browser.newContext({
        baseURL: server.url,
        viewport,
        locale: 'tr-TR',
        reducedMotion: 'reduce',
        storageState: { cookies: [], origins: [{ origin: server.url, localStorage }] },
      });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error('[page error]', error.message));
      pages.set(signedIn, page);
    }
    return new Visitor(pages, contexts);
  }

  /** The page a visit runs on. */
  page(visit: PageVisit): Page {
    return this.pages.get(visit.signedIn)!;
  }

  /** Opens the visit and waits until it is ready. */
  async go(visit: PageVisit): Promise<Page> {
    const page = this.page(visit);
    const inConsole = visit.signedIn && (await page.getByTestId('page-title').count()) > 0;
    if (inConsole) {
      // The router follows popstate like a back/forward step: the app stays loaded, only the page changes.
      await page.evaluate((target) => {
        window.history.pushState(null, '', target);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, visit.path);
    } else {
      await page.goto(visit.path);
    }
    await visit.ready(page);
    return page;
  }

  /** The themes in the order that needs one switch less: the page's current theme first. */
  async themeOrder(visit: PageVisit): Promise<ThemeName[]> {
    const current = await this.page(visit).evaluate(() => document.documentElement.dataset.theme);
    return current === 'dark' ? ['dark', 'light'] : ['light', 'dark'];
  }

  /** Puts the visit's page in the theme: the toggle where there is one, else the saved choice and a reload. */
  async theme(visit: PageVisit, theme: ThemeName): Promise<void> {
    const page = this.page(visit);
    const current = () => page.evaluate(() => document.documentElement.dataset.theme);
    if ((await current()) === theme) return;
    const toggle = page.getByTestId('theme-toggle');
    if ((await toggle.count()) > 0 && (await toggle.isVisible())) {
      await toggle.click();
      // Off the toggle, so its tooltip leaves (it is neither page content nor in the screenshots).
      await page.mouse.move(1, (page.viewportSize()?.height ?? 600) - 1);
    } else {
      await page.evaluate((value) => window.localStorage.setItem('theme', value), theme);
      await page.reload();
      await visit.ready(page);
    }
    await page.waitForFunction((value) => document.documentElement.dataset.theme === value, theme);
    // Ant Design eases colours over 0.2 s; measuring mid-way would see a blend of both themes.
    await animationsDone(page);
  }

  async close(): Promise<void> {
    for (const context of this.contexts) await context.close();
  }
}
