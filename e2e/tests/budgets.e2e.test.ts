import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectPageErrors, DEMO, launchBrowser, screenshot } from '../src/browser';
import { ApiClient, expectText, toast, tr, withPage } from '../src/console';
import { startServer, type RunningServer } from '../src/server';

interface PlantItem {
  id: number;
  name: string;
}
interface BudgetAnswer {
  plant_id: number;
  year: number;
  months: { month: number; energy_kwh: number; irradiation_kwh_m2: number | null }[];
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical WCAG 2.1 A/AA violations inside `selector` (rule and target), as a11y.e2e does for pages. */
async function violations(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(
    (sel) =>
      (window as unknown as { axe: { run: (c: Element, o: object) => Promise<AxeResults> } }).axe.run(
        document.querySelector(sel)!,
        {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
          resultTypes: ['violations'],
        },
      ),
    selector,
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`));
}

/** A number as the Turkish interface shows it (thousands `.`, decimal `,`, at most two decimals). */
const trNumber = (value: number) =>
  new Intl.NumberFormat('tr-TR', { maximumFractionDigits: 2 }).format(value);

/** Picks a budget year in the plant form's year select (it filters as one types). */
async function chooseYear(page: Page, year: number): Promise<void> {
  const select = page.getByTestId('budget-year');
  await vi.waitFor(
    async () => {
      if ((await select.textContent())?.includes(String(year))) return;
      await select.click();
      await select.locator('input').fill(String(year));
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: String(year) })
        .first()
        .click({ timeout: 2_000 });
      expect(await select.textContent()).toContain(String(year));
    },
    { timeout: 15_000, interval: 200 },
  );
}

/** Opens the plant management page's edit drawer of a plant, found by its name. */
async function openPlantForm(page: Page, plant: PlantItem): Promise<void> {
  await page.goto('/plant-management');
  await page.getByTestId('plant-search').fill(plant.name);
  await page.getByTestId('plant-search').press('Enter');
  await page.getByTestId(`plant-edit-${plant.id}`).click();
  await page.getByTestId('plant-form').waitFor();
  await page.getByTestId('budget-editor').waitFor();
}

/** Uploads a file through the import dialog's file input. */
async function upload(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('budget-import-file').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text, 'utf8'),
  });
}

describe('plant budgets: the editor on the plant form and the file import', () => {
  let server: RunningServer;
  let browser: Browser;
  let api: ApiClient;
  let plants: PlantItem[];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await ApiClient.login(server.url, DEMO.admin.email, DEMO.admin.password);
    plants = (await api.get<{ items: PlantItem[] }>('plants?page=1&pageSize=50&sort=name')).items;
    expect(plants.length).toBeGreaterThan(1);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const budgetOf = (plantId: number, year: number) =>
    api.get<BudgetAnswer>(`plants/${plantId}/budgets?year=${year}`);

  it("edits a plant's monthly budget with its yearly total, saves it with the plant, and a reload shows it", () =>
    withPage(
      browser,
      server.url,
      'budget-editor',
      async (page) => {
        const errors = collectPageErrors(page);
        const plant = plants[0]!;
        const year = 2031;
        const energy = [3100, 4200, 6800, 8900, 10400, 11500.5, 12100, 11300, 9200, 6900, 4100, 2950];
        const irradiation = [60, 80, 120, 150, 180, 195, 205, 190, 150, 110, 70, 55.5];
        await openPlantForm(page, plant);
        await chooseYear(page, year);
        expect(await page.getByTestId('budget-energy-1').inputValue()).toBe('');
        for (let m = 1; m <= 12; m++) {
          await page.getByTestId(`budget-energy-${m}`).fill(String(energy[m - 1]));
          await page.getByTestId(`budget-irradiation-${m}`).fill(String(irradiation[m - 1]));
        }
        const energyTotal = energy.reduce((a, b) => a + b, 0);
        const irradiationTotal = irradiation.reduce((a, b) => a + b, 0);
        await expectText(page.getByTestId('budget-total-energy'), `${trNumber(energyTotal)} kWh`);
        await expectText(
          page.getByTestId('budget-total-irradiation'),
          `${trNumber(irradiationTotal)} kWh/m²`,
        );

        // A month with irradiation but no energy is refused on the form, before anything is sent.
        await page.getByTestId('budget-energy-12').fill('');
        await page.getByTestId('plant-save').click();
        await expectText(
          page.getByTestId('budget-month-12').locator('[role="alert"]'),
          tr('budgets.irradiationNeedsEnergy'),
        );
        expect((await budgetOf(plant.id, year)).months).toEqual([]);
        await page.getByTestId('budget-energy-12').fill(String(energy[11]));
        await expectText(page.getByTestId('budget-total-energy'), `${trNumber(energyTotal)} kWh`);
        expect(await violations(page, '[data-testid="budget-editor"]')).toEqual([]);
        await screenshot(page, 'budget-editor-light');

        await page.getByTestId('plant-save').click();
        await page.getByTestId('plant-form').waitFor({ state: 'detached' });
        // Two calls (the plant, then its budget), one "done": the same toast is not stacked twice.
        await toast(page, tr('common.success')).first().waitFor();
        expect(await toast(page, tr('common.success')).count()).toBe(1);
        const stored = await budgetOf(plant.id, year);
        expect(stored.months).toEqual(
          energy.map((e, i) => ({ month: i + 1, energy_kwh: e, irradiation_kwh_m2: irradiation[i] })),
        );

        // After a reload the form shows the stored budget and its totals; another year stays empty.
        await page.reload();
        await openPlantForm(page, plant);
        await chooseYear(page, year);
        await vi.waitFor(async () =>
          expect(await page.getByTestId('budget-energy-6').inputValue()).toBe('11500.5'),
        );
        expect(await page.getByTestId('budget-irradiation-12').inputValue()).toBe('55.5');
        await expectText(page.getByTestId('budget-total-energy'), `${trNumber(energyTotal)} kWh`);
        await chooseYear(page, year + 1);
        await expectText(page.getByTestId('budget-total-energy'), '–');

        // On a phone in the dark theme, the twelve months fit the drawer without sideways scrolling.
        await page.getByTestId('plant-cancel').click();
        await page.getByTestId('plant-form').waitFor({ state: 'detached' });
        await page.getByTestId('theme-toggle').click();
        await vi.waitFor(async () =>
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark'),
        );
        await page.setViewportSize({ width: 390, height: 844 });
        await openPlantForm(page, plant);
        await chooseYear(page, year);
        await vi.waitFor(async () =>
          expect(await page.getByTestId('budget-energy-1').inputValue()).toBe('3100'),
        );
        await page.getByTestId('budget-total-energy').scrollIntoViewIfNeeded();
        const body = page.locator('.management-drawer .ant-drawer-body');
        const [scrollWidth, clientWidth] = await body.evaluate((b) => [b.scrollWidth, b.clientWidth]);
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
        const box = await page.getByTestId('budget-irradiation-12').boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
        expect(await violations(page, '[data-testid="budget-editor"]')).toEqual([]);
        await screenshot(page, 'budget-editor-dark-390');
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));

  it('imports a filled-in template and shows how many rows it stored', () =>
    withPage(
      browser,
      server.url,
      'budget-import-good',
      async (page) => {
        const errors = collectPageErrors(page);
        await page.goto('/plant-management');
        await page.getByTestId(`plant-edit-${plants[0]!.id}`).waitFor();
        await page.getByTestId('budget-import-open').click();
        await page.getByTestId('budget-import-choose').waitFor();

        // The template: the header and a row per month of this year for each listed plant.
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByTestId('budget-import-template').click(),
        ]);
        expect(download.suggestedFilename()).toBe(`${tr('budgets.templateFile')}.csv`);
        const template = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
        const [header, ...rows] = template.trim().split(/\r\n/);
        expect(header).toBe('plant_id;year;month;energy_kwh;irradiation_kwh_m2');
        const year = new Date().getFullYear();
        expect(rows).toHaveLength(plants.length * 12);
        expect(rows[0]).toBe(`${plants[0]!.id};${year};1;;`);

        // Filled in as a Turkish spreadsheet would: `;` and a decimal comma; no irradiation for odd plants.
        const filled = rows.map((row) => {
          const [id, y, month] = row.split(';').map(Number) as [number, number, number];
          const irr = id % 2 === 0 ? `${100 + month},5` : '';
          return `${id};${y};${month};${1000 * month + id},25;${irr}`;
        });
        await upload(page, 'butce.csv', `${[header, ...filled].join('\r\n')}\r\n`);
        await expectText(
          page.getByTestId('budget-import-result').locator('.ant-alert-title'),
          tr('budgets.imported')
            .replace('{{rows}}', String(rows.length))
            .replace('{{plants}}', String(plants.length)),
          30_000,
        );
        for (const plant of plants) {
          const stored = await budgetOf(plant.id, year);
          expect(stored.months).toHaveLength(12);
          expect(stored.months[4]).toEqual({
            month: 5,
            energy_kwh: 5000.25 + plant.id,
            irradiation_kwh_m2: plant.id % 2 === 0 ? 105.5 : null,
          });
        }
        await screenshot(page, 'budget-import-good');

        // The plant form shows the imported budget.
        await page.getByTestId('budget-import-close').click();
        await openPlantForm(page, plants[1]!);
        const total = Array.from({ length: 12 }, (_, m) => 1000 * (m + 1) + plants[1]!.id + 0.25).reduce(
          (a, b) => a + b,
          0,
        );
        await expectText(page.getByTestId('budget-total-energy'), `${trNumber(total)} kWh`);
        expect(errors).toEqual([]);
      },
      DEMO.admin,
    ));

  it('refuses a file with one bad row: the line and its reason are shown and nothing is imported', () =>
    withPage(
      browser,
      server.url,
      'budget-import-bad',
      async (page) => {
        const errors = collectPageErrors(page);
        const plant = plants[0]!;
        const year = 2032;
        const lines = [
          'plant_id,year,month,energy_kwh,irradiation_kwh_m2',
          `${plant.id},${year},1,3000,60`,
          `${plant.id},${year},2,4000,80`,
          `${plant.id},${year},3,lots,120`,
          `${plant.id},${year},4,9000,150`,
        ];
        await page.goto('/plant-management');
        await page.getByTestId('budget-import-open').click();
        await upload(page, 'budget.csv', lines.join('\n'));
        const refusal = page.getByTestId('budget-import-error');
        await expectText(refusal.locator('.ant-alert-title'), tr('errors.budgetImportInvalid'), 30_000);
        const problems = page.getByTestId('budget-import-problems').locator('li');
        expect(await problems.count()).toBe(1);
        await expectText(
          problems.first(),
          tr('budgets.rowProblem')
            .replace('{{line}}', '4')
            .replace('{{column}}', 'energy_kwh')
            .replace('{{message}}', tr('validation.invalidNumber')),
        );
        expect(await refusal.textContent()).toContain(tr('budgets.nothingImported'));
        expect(await violations(page, '.ant-modal')).toEqual([]);
        await screenshot(page, 'budget-import-bad');
        // Not even the good rows were stored.
        expect((await budgetOf(plant.id, year)).months).toEqual([]);

        // A file that is no CSV or XLSX is refused before it is sent.
        await page.getByTestId('budget-import-file').setInputFiles({
          name: 'budget.txt',
          mimeType: 'text/plain',
          buffer: Buffer.from('x'),
        });
        await expectText(refusal.locator('.ant-alert-title'), tr('budgets.wrongFileType'));
        // Chromium logs the refused call's 400; nothing else went wrong on the page.
        expect(errors.filter((e) => !e.includes('/api/budgets/import'))).toEqual([]);
      },
      DEMO.admin,
    ));
});
