import { translate, type LocaleCode } from '@solar/i18n';
import {
  DEGRADATION_MIN_SPAN_DAYS as YOY_DAYS_NEEDED,
  isLowCoverage,
  LOSS_KINDS,
  type AlarmsReportAnswer,
  type DegradationReportAnswer,
  type DegradationResult,
  type EnergySource,
  type FleetReportAnswer,
  type InvertersReportAnswer,
  type ProductionFigures,
  type ProductionReportAnswer,
  type ReportAnswer,
} from '@solar/shared';

/**
 * A report as the file formats see it: translated tables with typed columns, KPI tiles and charts. The
 * XLSX, CSV and PDF writers only lay it out, so the three files cannot disagree on a figure.
 */
export type CellValue = string | number | null;

/** `ratio` values are 0…1 (PR, availability): XLSX formats them as %, CSV and PDF write percent. */
export type ColumnKind = 'text' | 'number' | 'integer' | 'ratio' | 'date' | 'month';

export interface Column {
  header: string;
  /** Unit for the header, e.g. kWh; percent columns get `%`. */
  unit?: string;
  kind: ColumnKind;
  /** Decimals shown (XLSX number format, CSV, PDF); see shownDecimals for the default. */
  decimals?: number;
  /**
   * A budget figure: the PDF leaves it out where no plant has a budget (a column of "–" says nothing to the
   * reader); the XLSX and CSV keep their columns, so that a spreadsheet built on them keeps working.
   */
  budget?: boolean;
  /**
   * A loss (expected − actual energy): a negative one is energy above what the model expected and is
   * written as such ("12.3 above expectation"), never as a negative loss. The XLSX keeps the signed number
   * and shows it in words through its number format.
   */
  loss?: boolean;
}

/**
 * The decimals a number of the column is shown with, in every format: the XLSX number format displays
 * this many, the CSV and the PDF write this many (a ratio's as percent). Dates have none.
 */
export function shownDecimals(c: Pick<Column, 'kind' | 'decimals'>): number {
  if (c.kind === 'integer' || c.kind === 'date' || c.kind === 'month') return 0;
  return c.decimals ?? (c.kind === 'ratio' ? 1 : 2);
}

/**
 * A negative loss in words: "12.3 above expectation" (`shown`: the magnitude as the format writes numbers).
 * Every format uses this one sentence, as the fleet loss view does.
 */
export const aboveExpectation = (lang: LocaleCode, shown: string): string =>
  translate(lang, 'reportFile.loss.above', { value: shown });

export interface Table {
  /** Sheet name (XLSX) and heading (PDF). */
  name: string;
  columns: Column[];
  rows: CellValue[][];
  /** A last row in bold: the totals of the rows. */
  totals?: CellValue[];
}

export interface Tile {
  label: string;
  value: number | null;
  kind: ColumnKind;
  unit?: string;
  decimals?: number;
  /** A budget figure (see Column.budget). */
  budget?: boolean;
}

export interface Chart {
  title: string;
  categories: string[];
  series: { name: string; values: (number | null)[]; budget?: boolean }[];
  unit: string;
}

export interface ReportDocument {
  lang: LocaleCode;
  title: string;
  /** Companies of the report's plants. */
  companies: string[];
  period: string;
  /** ISO 8601 instant. */
  generatedAt: string;
  /**
   * The zone the report's times are shown in: its plants' zone, or where they lie in several, the zone
   * most of them are in (a company's plants share one); UTC only for a report without plants.
   */
  timeZone: string;
  tiles: Tile[];
  charts: Chart[];
  /** The summary first, then one table per plant where the report has them. */
  tables: Table[];
  /** The one table a CSV holds. */
  csv: Table;
  /** Things a reader must know before trusting the figures (a plant whose period has too little data). */
  warnings: string[];
}

/** What each report type lays out; the head (title, period, zone…) is common. */
type Body = Omit<ReportDocument, 'lang' | 'title' | 'period' | 'generatedAt' | 'timeZone' | 'companies'>;

type T = (key: string, vars?: Record<string, string | number>) => string;

const col = (header: string, kind: ColumnKind, unit?: string, decimals?: number): Column => ({
  header,
  kind,
  ...(unit ? { unit } : {}),
  ...(decimals === undefined ? {} : { decimals }),
});

const budgetCol = (c: Column): Column => ({ ...c, budget: true });
const lossCol = (header: string): Column => ({ ...col(header, 'number', 'kWh', 1), loss: true });

/** The loss columns, kind by kind then the total, in the fleet loss view's order. */
const lossColumns = (t: T): Column[] => [
  ...LOSS_KINDS.map((k) => lossCol(t(`reportFile.loss.${k}`))),
  lossCol(t('reportFile.loss.total')),
];

/**
 * Where a row's energy comes from, in words an owner reads ("Sayaç", "İnverter toplamı"): the KPI engine
 * counts the grid meter when the plant has one with readings, else its inverters' sum, and the two differ
 * by cable, transformer and own-use loss. Rows of several sources (a fleet's total, a month whose meter
 * began mid-way) say both; nothing counted (`none`) leaves the cell empty, as its energy is.
 */
function sourceCell(sources: readonly EnergySource[], t: T): string | null {
  const counted = new Set(sources.filter((s) => s !== 'none'));
  if (counted.size > 1) return t('reportFile.source.mixed');
  const [only] = counted;
  return only ? t(`reportFile.source.${only}`) : null;
}

/** The energy column and, beside it, the column naming its source (sourceCell). */
const energyColumns = (t: T): Column[] => [
  col(t('reportFile.col.energy'), 'number', 'kWh', 1),
  col(t('reportFile.col.source'), 'text'),
];

function figureColumns(t: T): Column[] {
  return [
    ...energyColumns(t),
    col(t('reportFile.col.specificYield'), 'number', 'kWh/kWp', 2),
    col(t('reportFile.col.irradiation'), 'number', 'kWh/m²', 2),
    col(t('reportFile.col.pr'), 'ratio', '%', 1),
    col(t('reportFile.col.prTemperatureCorrected'), 'ratio', '%', 1),
    col(t('reportFile.col.availability'), 'ratio', '%', 1),
    col(t('reportFile.col.expectedEnergy'), 'number', 'kWh', 1),
    budgetCol(col(t('reportFile.col.budget'), 'number', 'kWh', 1)),
    budgetCol(col(t('reportFile.col.budgetRatio'), 'ratio', '%', 1)),
    budgetCol(col(t('reportFile.col.weatherCorrectedBudget'), 'number', 'kWh', 1)),
    budgetCol(col(t('reportFile.col.weatherCorrectedBudgetRatio'), 'ratio', '%', 1)),
    ...lossColumns(t),
    col(t('reportFile.col.coverage'), 'ratio', '%', 1),
  ];
}

/**
 * What the figures left out, as CSV columns (the files' tables say it in a warning instead): the hours of
 * doubted irradiance and the energy not counted as produced (docs/kpi.md).
 */
const excludedColumns = (t: T): Column[] => [
  col(t('reportFile.col.excludedIrradiance'), 'number', 'h', 1),
  col(t('reportFile.col.excludedEnergy'), 'number', 'kWh', 1),
];
const excludedCells = (f: ProductionFigures): CellValue[] => [
  f.excluded_irradiance_hours_total,
  f.excluded_energy_kwh_total,
];

/** A figure set's cells; `source` is sourceCell's, of the rows the set sums. */
function figureCells(f: ProductionFigures, source: string | null): CellValue[] {
  return [
    f.energy_kwh,
    source,
    f.specific_yield_kwh_kwp,
    f.irradiation_kwh_m2,
    f.pr,
    f.pr_temperature_corrected,
    f.availability,
    f.expected_energy_kwh,
    f.budget_kwh,
    f.budget_ratio,
    f.weather_corrected_budget_kwh,
    f.weather_corrected_budget_ratio,
    ...LOSS_KINDS.map((k) => f.losses[`${k}_kwh`]),
    f.losses.total_kwh,
    f.coverage,
  ];
}

const LOCALE_TAGS = { tr_TR: 'tr-TR', en_US: 'en-US', de_DE: 'de-DE', mk_MK: 'mk-MK' } as const;

/**
 * One warning per plant whose period has less data than KPI_COVERAGE_WARNING_BELOW: its availability and
 * PR speak only for the part with data (a month of three days must not read as a month).
 */
function coverageWarnings(
  plants: readonly { name: string; coverage: number | null }[],
  lang: LocaleCode,
  t: T,
): string[] {
  const percent = new Intl.NumberFormat(LOCALE_TAGS[lang], { maximumFractionDigits: 1 });
  return plants
    .filter((p) => isLowCoverage(p.coverage))
    .map((p) => t('reportFile.lowCoverage', { plant: p.name, percent: percent.format(p.coverage! * 100) }));
}

/**
 * One warning per plant whose figures left doubted irradiance out (excluded_irradiance_hours: the plant
 * page's and the fleet view's own number), saying how many hours and why.
 */
function excludedIrradianceWarnings(
  plants: readonly { name: string; excluded_irradiance_hours: { total: number } }[],
  lang: LocaleCode,
  t: T,
): string[] {
  const hours = new Intl.NumberFormat(LOCALE_TAGS[lang], { maximumFractionDigits: 2 });
  return plants
    .filter((p) => p.excluded_irradiance_hours.total > 0)
    .map((p) =>
      t('reportFile.excludedIrradiance', {
        plant: p.name,
        hours: hours.format(p.excluded_irradiance_hours.total),
      }),
    );
}

const plantColumns = (t: T): Column[] => [
  col(t('reportFile.col.plant'), 'text'),
  col(t('reportFile.col.company'), 'text'),
  col(t('reportFile.col.capacity'), 'number', 'kWp', 1),
];

/** A production report's plant with its rows. */
type ProductionPlant = ProductionReportAnswer['plants'][number];

const productionKey = (r: Pick<ProductionReportAnswer, 'granularity'>, t: T) => ({
  column: col(
    t(`reportFile.granularity.${r.granularity}`),
    r.granularity === 'day' ? 'date' : r.granularity === 'month' ? 'month' : 'integer',
  ),
  cell: (key: string): CellValue => (r.granularity === 'year' ? Number(key) : key),
});

/** The distinct sources of a plant's rows: what its total's source cell says. */
export const rowSources = (p: Pick<ProductionPlant, 'rows'>): EnergySource[] => [
  ...new Set(p.rows.map((row) => row.energy_source)),
];

/** One plant's table of a production report: its days, months or years, then its total. */
function productionPlantTable(
  r: Pick<ProductionReportAnswer, 'granularity'>,
  p: ProductionPlant,
  t: T,
): Table {
  const key = productionKey(r, t);
  return {
    name: p.name,
    columns: [key.column, ...figureColumns(t)],
    rows: p.rows.map((row) => [key.cell(row.key), ...figureCells(row, sourceCell([row.energy_source], t))]),
    totals: [t('reportFile.total'), ...figureCells(p.totals, sourceCell(rowSources(p), t))],
  };
}

/** One plant's rows of a production report's CSV: the plant's name, the key, the figures. */
function productionCsvRows(
  r: Pick<ProductionReportAnswer, 'granularity'>,
  p: ProductionPlant,
  t: T,
): CellValue[][] {
  const { cell: keyCell } = productionKey(r, t);
  return p.rows.map((row) => [
    p.name,
    keyCell(row.key),
    ...figureCells(row, sourceCell([row.energy_source], t)),
    ...excludedCells(row),
  ]);
}

/**
 * `sources`: each plant's row sources where its rows are left out (a document whose plants' tables follow
 * one by one, reportHeadDocument); then the tables are the summary alone.
 */
function production(r: ProductionReportAnswer, t: T, sources?: readonly (readonly EnergySource[])[]): Body {
  const warnings = [
    ...coverageWarnings(
      r.plants.map((p) => ({ name: p.name, coverage: p.totals.coverage })),
      r.lang,
      t,
    ),
    ...excludedIrradianceWarnings(r.plants, r.lang, t),
  ];
  const { column: keyColumn } = productionKey(r, t);
  // A total's source is that of the rows it sums, so a plant whose meter came mid-period reads as both.
  const sourcesOf = (p: ProductionPlant, i: number) => sources?.[i] ?? rowSources(p);
  const allSources = r.plants.flatMap(sourcesOf);
  const summary: Table = {
    name: t('reportFile.summary'),
    columns: [...plantColumns(t), ...figureColumns(t)],
    rows: r.plants.map((p, i) => [
      p.name,
      p.company_name,
      p.dc_capacity_kwp,
      ...figureCells(p.totals, sourceCell(sourcesOf(p, i), t)),
    ]),
    totals: [
      t('reportFile.total'),
      null,
      sumOrNull(r.plants.map((p) => p.dc_capacity_kwp)),
      ...figureCells(r.totals, sourceCell(allSources, t)),
    ],
  };
  const perPlant: Table[] = sources ? [] : r.plants.map((p) => productionPlantTable(r, p, t));
  const csv: Table = {
    name: summary.name,
    columns: [col(t('reportFile.col.plant'), 'text'), keyColumn, ...figureColumns(t), ...excludedColumns(t)],
    // Streamed (`sources` given), the rows come plant by plant (plantCsvRows); a single plant's head keeps
    // its rows for its chart, which must not be written twice.
    rows: sources ? [] : r.plants.flatMap((p) => productionCsvRows(r, p, t)),
    totals: [
      t('reportFile.total'),
      null,
      ...figureCells(r.totals, sourceCell(allSources, t)),
      ...excludedCells(r.totals),
    ],
  };
  const single = r.plants.length === 1 ? r.plants[0]! : null;
  const chartOf = single
    ? { categories: single.rows.map((x) => x.key), rows: single.rows as ProductionFigures[] }
    : { categories: r.plants.map((p) => p.name), rows: r.plants.map((p) => p.totals) };
  return {
    tiles: [
      {
        label: t('reportFile.col.energy'),
        value: r.totals.energy_kwh,
        kind: 'number',
        unit: 'kWh',
        decimals: 0,
      },
      {
        label: t('reportFile.col.specificYield'),
        value: r.totals.specific_yield_kwh_kwp,
        kind: 'number',
        unit: 'kWh/kWp',
        decimals: 1,
      },
      { label: t('reportFile.col.pr'), value: r.totals.pr, kind: 'ratio', decimals: 1 },
      { label: t('reportFile.col.availability'), value: r.totals.availability, kind: 'ratio', decimals: 1 },
      {
        label: t('reportFile.col.budgetRatio'),
        value: r.totals.budget_ratio,
        kind: 'ratio',
        decimals: 1,
        budget: true,
      },
    ],
    charts: [
      {
        title: t('reportFile.chart.energyVsBudget'),
        unit: 'kWh',
        categories: chartOf.categories,
        series: [
          { name: t('reportFile.col.energy'), values: chartOf.rows.map((x) => x.energy_kwh) },
          {
            name: t('reportFile.col.expectedEnergy'),
            values: chartOf.rows.map((x) => x.expected_energy_kwh),
          },
          {
            name: t('reportFile.col.budget'),
            values: chartOf.rows.map((x) => x.budget_kwh),
            budget: true,
          },
        ],
      },
    ],
    tables: [summary, ...perPlant],
    csv,
    warnings,
  };
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}

/**
 * The fleet summary: first the fleet loss view's columns (expected and actual energy, the losses by kind and
 * in total, availability, PR, coverage, the largest loss), then the rest of the production figures. A
 * plant without any data in the period has unknown expected energy and losses, left empty as the view
 * shows them, not zero.
 */
function fleet(r: FleetReportAnswer, t: T): Body {
  const columns = [
    ...plantColumns(t),
    col(t('reportFile.col.expectedEnergy'), 'number', 'kWh', 1),
    ...energyColumns(t),
    lossCol(t('reportFile.loss.total')),
    ...LOSS_KINDS.map((k) => lossCol(t(`reportFile.loss.${k}`))),
    col(t('reportFile.col.availability'), 'ratio', '%', 1),
    col(t('reportFile.col.pr'), 'ratio', '%', 1),
    col(t('reportFile.col.coverage'), 'ratio', '%', 1),
    col(t('reportFile.col.topLoss'), 'text'),
    col(t('reportFile.col.specificYield'), 'number', 'kWh/kWp', 2),
    col(t('reportFile.col.irradiation'), 'number', 'kWh/m²', 2),
    col(t('reportFile.col.prTemperatureCorrected'), 'ratio', '%', 1),
    budgetCol(col(t('reportFile.col.budget'), 'number', 'kWh', 1)),
    budgetCol(col(t('reportFile.col.budgetRatio'), 'ratio', '%', 1)),
    budgetCol(col(t('reportFile.col.weatherCorrectedBudget'), 'number', 'kWh', 1)),
    budgetCol(col(t('reportFile.col.weatherCorrectedBudgetRatio'), 'ratio', '%', 1)),
    col(t('reportFile.col.alarms'), 'integer'),
  ];
  const topLoss = (p: FleetReportAnswer['plants'][number]): string =>
    !p.coverage
      ? t('plantView.fleetLoss.noData')
      : p.top_loss
        ? t(`plantView.loss.${p.top_loss}`)
        : t('plantView.fleetLoss.noLoss');
  const cells = (
    p: FleetReportAnswer['totals'] | FleetReportAnswer['plants'][number],
    top: string | null,
    source: string | null,
  ): CellValue[] => {
    // Without any data the engine's expectation and losses are 0: unknown, not a perfect period.
    const known = Boolean(p.coverage);
    return [
      known ? p.expected_energy_kwh : null,
      p.energy_kwh,
      source,
      known ? p.losses.total_kwh : null,
      ...LOSS_KINDS.map((k) => (known ? p.losses[`${k}_kwh`] : null)),
      p.availability,
      p.pr,
      p.coverage,
      top,
      p.specific_yield_kwh_kwp,
      p.irradiation_kwh_m2,
      p.pr_temperature_corrected,
      p.budget_kwh,
      p.budget_ratio,
      p.weather_corrected_budget_kwh,
      p.weather_corrected_budget_ratio,
      p.alarm_count,
    ];
  };
  const summary: Table = {
    name: t('reportFile.summary'),
    columns,
    rows: r.plants.map((p) => [
      p.name,
      p.company_name,
      p.dc_capacity_kwp,
      ...cells(p, topLoss(p), sourceCell([p.energy_source], t)),
    ]),
    totals: [
      t('reportFile.total'),
      null,
      r.totals.dc_capacity_kwp,
      ...cells(
        r.totals,
        null,
        sourceCell(
          r.plants.map((p) => p.energy_source),
          t,
        ),
      ),
    ],
  };
  return {
    tiles: [
      { label: t('reportFile.tile.plants'), value: r.totals.plant_count, kind: 'integer' },
      {
        label: t('reportFile.col.capacity'),
        value: r.totals.dc_capacity_kwp,
        kind: 'number',
        unit: 'kWp',
        decimals: 0,
      },
      {
        label: t('reportFile.col.energy'),
        value: r.totals.energy_kwh,
        kind: 'number',
        unit: 'kWh',
        decimals: 0,
      },
      { label: t('reportFile.col.pr'), value: r.totals.pr, kind: 'ratio', decimals: 1 },
      {
        label: t('reportFile.col.budgetRatio'),
        value: r.totals.budget_ratio,
        kind: 'ratio',
        decimals: 1,
        budget: true,
      },
    ],
    charts: [
      {
        title: t('reportFile.chart.specificYield'),
        unit: 'kWh/kWp',
        // A chart of hundreds of bars says nothing: the 30 best and worst are in the table anyway.
        categories: r.plants.slice(0, 40).map((p) => p.name),
        series: [
          {
            name: t('reportFile.col.specificYield'),
            values: r.plants.slice(0, 40).map((p) => p.specific_yield_kwh_kwp),
          },
        ],
      },
    ],
    tables: [summary],
    csv: {
      ...summary,
      columns: [...summary.columns, ...excludedColumns(t)],
      rows: summary.rows.map((row, i) => [...row, ...excludedCells(r.plants[i]!)]),
      ...(summary.totals ? { totals: [...summary.totals, ...excludedCells(r.totals)] } : {}),
    },
    warnings: [...coverageWarnings(r.plants, r.lang, t), ...excludedIrradianceWarnings(r.plants, r.lang, t)],
  };
}

function alarms(r: AlarmsReportAnswer, t: T): Body {
  const minutes = t('reportFile.unit.minutes');
  const durationRows = (label: string, d: AlarmsReportAnswer['time_to_acknowledge']): CellValue[][] => [
    [label, t('reportFile.stat.count'), d.count],
    [label, t('reportFile.stat.mean'), d.mean_minutes],
    [label, t('reportFile.stat.median'), d.median_minutes],
    [label, t('reportFile.stat.max'), d.max_minutes],
  ];
  const statColumns = [
    col(t('reportFile.col.section'), 'text'),
    col(t('reportFile.col.item'), 'text'),
    col(t('reportFile.col.value'), 'number', undefined, 1),
  ];
  const priority = (id: number) => t(`reportFile.priority.${id}`);
  const deviceType = (type: string | null) => (type === null ? t('reportFile.plantItself') : type);
  const statRows: CellValue[][] = [
    [t('reportFile.col.alarms'), t('reportFile.stat.count'), r.alarm_count],
    [t('reportFile.col.faults'), t('reportFile.stat.count'), r.fault_count],
    ...r.by_priority.map((p) => [t('reportFile.byPriority'), priority(p.priority_id), p.count]),
    ...r.by_device_type.map((d) => [t('reportFile.byDeviceType'), deviceType(d.device_type), d.count]),
    ...durationRows(`${t('reportFile.timeToAcknowledge')} (${minutes})`, r.time_to_acknowledge),
    ...durationRows(`${t('reportFile.timeToRepair')} (${minutes})`, r.time_to_repair),
  ];
  const summary: Table = { name: t('reportFile.summary'), columns: statColumns, rows: statRows };
  const top: Table = {
    name: t('reportFile.topDevices'),
    columns: [
      col(t('reportFile.col.device'), 'text'),
      col(t('reportFile.col.deviceType'), 'text'),
      col(t('reportFile.col.plant'), 'text'),
      col(t('reportFile.col.alarms'), 'integer'),
    ],
    rows: r.top_devices.map((d) => [d.device_name, d.device_type, d.plant_name, d.alarm_count]),
  };
  return {
    tiles: [
      { label: t('reportFile.col.alarms'), value: r.alarm_count, kind: 'integer' },
      { label: t('reportFile.col.faults'), value: r.fault_count, kind: 'integer' },
      {
        label: t('reportFile.timeToAcknowledge'),
        value: r.time_to_acknowledge.median_minutes,
        kind: 'number',
        unit: minutes,
        decimals: 0,
      },
      {
        label: t('reportFile.timeToRepair'),
        value: r.time_to_repair.median_minutes,
        kind: 'number',
        unit: minutes,
        decimals: 0,
      },
    ],
    charts: [
      {
        title: t('reportFile.byPriority'),
        unit: '',
        categories: r.by_priority.map((p) => priority(p.priority_id)),
        series: [{ name: t('reportFile.col.alarms'), values: r.by_priority.map((p) => p.count) }],
      },
    ],
    tables: [summary, top],
    csv: summary,
    warnings: [],
  };
}

function inverters(r: InvertersReportAnswer, t: T): Body {
  const columns = [
    col(t('reportFile.col.plant'), 'text'),
    col(t('reportFile.col.inverter'), 'text'),
    col(t('reportFile.col.ratedPower'), 'number', 'kW', 1),
    col(t('reportFile.col.capacity'), 'number', 'kWp', 1),
    col(t('reportFile.col.energy'), 'number', 'kWh', 1),
    col(t('reportFile.col.specificYield'), 'number', 'kWh/kWp', 2),
    col(t('reportFile.col.relativeToPlant'), 'ratio', '%', 1),
  ];
  const rowOf = (i: InvertersReportAnswer['inverters'][number]): CellValue[] => [
    i.plant_name,
    i.name,
    i.rated_power_kw,
    i.dc_capacity_kwp,
    i.energy_kwh,
    i.specific_yield_kwh_kwp,
    i.relative_to_plant_mean,
  ];
  const energy = sumOrNull(r.inverters.map((i) => i.energy_kwh));
  const capacity = sumOrNull(r.inverters.map((i) => i.dc_capacity_kwp));
  const measuredCapacity = sumOrNull(
    r.inverters.filter((i) => i.energy_kwh !== null).map((i) => i.dc_capacity_kwp),
  );
  const summary: Table = {
    name: t('reportFile.summary'),
    columns,
    rows: r.inverters.map(rowOf),
    totals: [
      t('reportFile.total'),
      null,
      sumOrNull(r.inverters.map((i) => i.rated_power_kw)),
      capacity,
      energy,
      // Yield over the capacity of the inverters that reported: one without data is not one that made 0.
      energy !== null && measuredCapacity ? energy / measuredCapacity : null,
      null,
    ],
  };
  const perPlant: Table[] = r.plants.map((p) => ({
    name: p.name,
    columns,
    rows: r.inverters.filter((i) => i.plant_id === p.plant_id).map(rowOf),
  }));
  const shown = r.inverters.slice(0, 40);
  return {
    tiles: [
      { label: t('reportFile.tile.inverters'), value: r.inverters.length, kind: 'integer' },
      {
        label: t('reportFile.col.energy'),
        value: energy,
        kind: 'number',
        unit: 'kWh',
        decimals: 0,
      },
    ],
    charts: [
      {
        title: t('reportFile.chart.specificYield'),
        unit: 'kWh/kWp',
        categories: shown.map((i) => (r.plants.length > 1 ? `${i.plant_name} · ${i.name}` : i.name)),
        series: [
          { name: t('reportFile.col.specificYield'), values: shown.map((i) => i.specific_yield_kwh_kwp) },
        ],
      },
    ],
    tables: [summary, ...perPlant],
    csv: summary,
    warnings: [],
  };
}

/** Most plants whose normalised energy is drawn as a chart (the tables hold every plant). */
const DEGRADATION_CHARTS_MAX = 12;

/**
 * The yearly degradation report: one row per plant and per inverter with the rate, its interval and the
 * data it rests on, or "insufficient data" in words instead of a number; per plant the period's normalised
 * energy month by month, as a table and a chart.
 */
function degradation(r: DegradationReportAnswer, t: T): Body {
  const columns = [
    col(t('reportFile.col.plant'), 'text'),
    col(t('reportFile.col.inverter'), 'text'),
    col(t('reportFile.col.degradationRate'), 'number', '%/a', 2),
    col(t('reportFile.col.intervalLow'), 'number', '%/a', 2),
    col(t('reportFile.col.intervalHigh'), 'number', '%/a', 2),
    col(t('reportFile.col.confidenceLevel'), 'ratio', '%', 1),
    col(t('reportFile.col.pairs'), 'integer'),
    col(t('reportFile.col.dataYears'), 'number', 'a', 1),
    col(t('reportFile.col.dataFrom'), 'date'),
    col(t('reportFile.col.dataTo'), 'date'),
    col(t('reportFile.col.note'), 'text'),
  ];
  const insufficient = (d: Extract<DegradationResult, { status: 'insufficient_data' }>) =>
    t('reportFile.degradation.insufficient', { needed: YOY_DAYS_NEEDED, days: d.span_days });
  const rowOf = (plant: string, inverter: string, d: DegradationResult): CellValue[] =>
    d.status === 'ok'
      ? [
          plant,
          inverter,
          d.rate_pct_per_year,
          d.ci_low_pct_per_year,
          d.ci_high_pct_per_year,
          d.confidence_level,
          d.pairs,
          d.span_days / 365.25,
          d.from,
          d.to,
          null,
        ]
      : [plant, inverter, null, null, null, null, null, d.span_days / 365.25, d.from, d.to, insufficient(d)];
  const rows = r.plants.flatMap((p) => [
    rowOf(p.name, t('reportFile.degradation.wholePlant'), p.degradation),
    ...p.inverters.map((i) => rowOf(p.name, i.name, i.result)),
  ]);
  const summary: Table = { name: t('reportFile.summary'), columns, rows };
  const monthColumns = [
    col(t('reportFile.col.month'), 'month'),
    col(t('reportFile.col.normalizedEnergy'), 'number', undefined, 3),
    col(t('reportFile.col.usableDays'), 'integer'),
  ];
  const perPlant: Table[] = r.plants.map((p) => ({
    name: p.name,
    columns: monthColumns,
    rows: p.months.map((m) => [m.month, m.normalized_energy, m.usable_days]),
  }));
  const warnings = r.plants.flatMap((p) =>
    p.degradation.status === 'insufficient_data' ? [`${p.name}: ${insufficient(p.degradation)}`] : [],
  );
  return {
    tiles: [
      { label: t('reportFile.tile.plants'), value: r.plants.length, kind: 'integer' },
      {
        label: t('reportFile.tile.plantsWithRate'),
        value: r.plants.filter((p) => p.degradation.status === 'ok').length,
        kind: 'integer',
      },
    ],
    charts: r.plants.slice(0, DEGRADATION_CHARTS_MAX).map((p) => ({
      title: t('reportFile.chart.normalizedEnergy', { plant: p.name }),
      unit: '',
      categories: p.months.map((m) => m.month),
      series: [
        { name: t('reportFile.col.normalizedEnergy'), values: p.months.map((m) => m.normalized_energy) },
      ],
    })),
    tables: [summary, ...perPlant],
    csv: summary,
    warnings,
  };
}

/** The zone most of `zones` are (the first of them on a tie), UTC for none. */
export function mainTimeZone(zones: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const z of zones) counts.set(z, (counts.get(z) ?? 0) + 1);
  let best = 'UTC';
  let most = 0;
  for (const [zone, n] of counts)
    if (n > most) {
      best = zone;
      most = n;
    }
  return best;
}

/** The report's document in its language. */
export function reportDocument(report: ReportAnswer): ReportDocument {
  return documentOf(report);
}

/**
 * The head of a production report's document whose plants' tables follow one by one (plantTable), so that
 * a file need not hold a year of every plant at once: title, warnings, tiles, charts, and the summary as
 * its one table. `head`'s plants may come without their rows (but for a single plant, whose chart is by
 * row); `sources` are each plant's row sources (rowSources), which the summary's source column says.
 */
export function reportHeadDocument(
  head: ProductionReportAnswer,
  sources: readonly (readonly EnergySource[])[],
): ReportDocument {
  return documentOf(head, sources);
}

/** One plant's table of a production report, as reportDocument lays it out after the summary. */
export function plantTable(
  report: Pick<ProductionReportAnswer, 'lang' | 'granularity'>,
  plant: ProductionPlant,
): Table {
  return productionPlantTable(report, plant, (key, vars) => translate(report.lang, key, vars));
}

/** One plant's rows of a production report's CSV, as reportDocument lays them out after the plant before. */
export function plantCsvRows(
  report: Pick<ProductionReportAnswer, 'lang' | 'granularity'>,
  plant: ProductionPlant,
): CellValue[][] {
  return productionCsvRows(report, plant, (key, vars) => translate(report.lang, key, vars));
}

function documentOf(report: ReportAnswer, sources?: readonly (readonly EnergySource[])[]): ReportDocument {
  const lang = report.lang;
  const t: T = (key, vars) => translate(lang, key, vars);
  const body =
    report.type === 'production'
      ? production(report, t, sources)
      : report.type === 'fleet'
        ? fleet(report, t)
        : report.type === 'alarms'
          ? alarms(report, t)
          : report.type === 'inverters'
            ? inverters(report, t)
            : degradation(report, t);
  return {
    lang,
    title: t(`reportFile.title.${report.type}`),
    companies: [...new Set(report.plants.map((p) => p.company_name))],
    period: report.from === report.to ? report.from : `${report.from} – ${report.to}`,
    generatedAt: report.generated_at,
    timeZone: mainTimeZone(report.plants.map((p) => p.time_zone)),
    ...body,
  };
}
