import { LOSS_KINDS, type DegradationResult, type FleetReportAnswer, type ReportAnswer } from '@solar/shared';
import type { TranslationKey } from '../../lib/i18n-keys';

/** A column of the preview table: a translated title, its unit, how to show its numbers. */
export interface PreviewColumn {
  key: string;
  title: TranslationKey;
  unit?: string;
  /** Fraction digits; `percent` shows a 0…1 ratio as a percentage. */
  digits?: number;
  percent?: boolean;
  /**
   * A cell shown as the fleet loss view shows it rather than as a plain number: `loss` (a negative one in
   * words, above expectation), `coverage` (marked when low), `energy` (with the row's `energy_source`
   * under it), `key` (a translation key).
   */
  show?: 'loss' | 'coverage' | 'energy' | 'key';
}

export type PreviewCell = string | number | null;
export type PreviewRow = { rowKey: string } & Record<string, PreviewCell>;

/** The preview of one report: a table and the bars of its chart. */
export interface PreviewModel {
  columns: PreviewColumn[];
  rows: PreviewRow[];
  chart: { title: TranslationKey; unit: string; bars: { label: string; value: number | null }[] };
}

const C = {
  plant: { key: 'plant', title: 'reportPage.columns.plant' },
  energy: { key: 'energy_kwh', title: 'reportPage.columns.energy', unit: 'kWh', digits: 1 },
  yield: { key: 'specific_yield_kwh_kwp', title: 'reportPage.columns.specificYield', unit: 'kWh/kWp' },
  irradiation: { key: 'irradiation_kwh_m2', title: 'reportPage.columns.irradiation', unit: 'kWh/m²' },
  pr: { key: 'pr', title: 'reportPage.columns.pr', percent: true },
  availability: { key: 'availability', title: 'reportPage.columns.availability', percent: true },
  expected: {
    key: 'expected_energy_kwh',
    title: 'reportPage.columns.expectedEnergy',
    unit: 'kWh',
    digits: 1,
  },
  alarms: { key: 'alarm_count', title: 'reportPage.columns.alarmCount', digits: 0 },
  totalLoss: { key: 'loss_total_kwh', title: 'plantView.fleetLoss.loss', digits: 1, show: 'loss' },
  topLoss: { key: 'top_loss', title: 'plantView.fleetLoss.topCause', show: 'key' },
  coverage: { key: 'coverage', title: 'plantView.fleetLoss.data', percent: true, show: 'coverage' },
} as const satisfies Record<string, PreviewColumn>;

/** The loss by cause, in the fleet loss view's order. */
const LOSS_COLUMNS: PreviewColumn[] = LOSS_KINDS.map((kind) => ({
  key: `loss_${kind}_kwh`,
  title: `plantView.loss.${kind}`,
  unit: 'kWh',
  digits: 1,
  show: 'loss',
}));

type FleetFigures = FleetReportAnswer['plants'][number] | FleetReportAnswer['totals'];

/**
 * A fleet report row with the fleet loss view's figures (GET reports/fleet carries those of
 * FleetLossesService.periodLosses). Without any data in the period the expectation and the losses are
 * unknown, not zero, as in the view and the report files; `topLoss` is null for the total row.
 */
function fleetRow(rowKey: string, name: string, f: FleetFigures, topLoss: string | null): PreviewRow {
  const known = Boolean(f.coverage);
  return {
    rowKey,
    plant: name,
    expected_energy_kwh: known ? f.expected_energy_kwh : null,
    energy_kwh: f.energy_kwh,
    energy_source: f.energy_source,
    loss_total_kwh: known ? f.losses.total_kwh : null,
    top_loss: topLoss,
    ...Object.fromEntries(LOSS_KINDS.map((k) => [`loss_${k}_kwh`, known ? f.losses[`${k}_kwh`] : null])),
    availability: f.availability,
    pr: f.pr,
    coverage: f.coverage,
    specific_yield_kwh_kwp: f.specific_yield_kwh_kwp,
    alarm_count: f.alarm_count,
  };
}

/** The largest loss's cause as the fleet loss view names it: none without data or without a loss. */
const topLossKey = (p: FleetReportAnswer['plants'][number]) =>
  !p.coverage
    ? 'plantView.fleetLoss.noData'
    : p.top_loss
      ? `plantView.loss.${p.top_loss}`
      : 'plantView.fleetLoss.noLoss';

/**
 * The table and chart of a report answer: per plant for production and fleet (with a total row), the
 * devices with most alarms and the count by priority for alarms, each inverter for inverters, each plant
 * (`wholePlantLabel`) and its inverters for degradation, whose rate is empty and its status says
 * "insufficient data" when the data is too short for one.
 */
export function previewOf(
  report: ReportAnswer,
  totalLabel: string,
  priorityLabel: (id: number) => string,
  wholePlantLabel = '',
): PreviewModel {
  switch (report.type) {
    case 'production': {
      const byKey = new Map<string, number | null>();
      for (const plant of report.plants) {
        for (const row of plant.rows) {
          const before = byKey.get(row.key) ?? null;
          byKey.set(row.key, row.energy_kwh === null ? before : (before ?? 0) + row.energy_kwh);
        }
      }
      const figures = (name: string, rowKey: string, f: (typeof report)['totals']): PreviewRow => ({
        rowKey,
        plant: name,
        energy_kwh: f.energy_kwh,
        specific_yield_kwh_kwp: f.specific_yield_kwh_kwp,
        irradiation_kwh_m2: f.irradiation_kwh_m2,
        pr: f.pr,
        availability: f.availability,
        expected_energy_kwh: f.expected_energy_kwh,
      });
      return {
        columns: [C.plant, C.energy, C.yield, C.irradiation, C.pr, C.availability, C.expected],
        rows: [
          ...report.plants.map((p) => figures(p.name, String(p.plant_id), p.totals)),
          figures(totalLabel, 'total', report.totals),
        ],
        chart: {
          title: 'reportPage.charts.energyByPeriod',
          unit: 'kWh',
          bars: [...byKey.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([label, value]) => ({ label, value })),
        },
      };
    }
    case 'fleet':
      return {
        columns: [
          C.plant,
          C.expected,
          { ...C.energy, show: 'energy' },
          C.totalLoss,
          C.topLoss,
          ...LOSS_COLUMNS,
          C.availability,
          C.pr,
          C.coverage,
          C.yield,
          C.alarms,
        ],
        rows: [
          ...report.plants.map((p) => fleetRow(String(p.plant_id), p.name, p, topLossKey(p))),
          fleetRow('total', totalLabel, report.totals, null),
        ],
        chart: {
          title: 'reportPage.charts.yieldByPlant',
          unit: 'kWh/kWp',
          bars: report.plants.map((p) => ({ label: p.name, value: p.specific_yield_kwh_kwp })),
        },
      };
    case 'alarms':
      return {
        columns: [
          { key: 'device', title: 'reportPage.columns.device' },
          C.plant,
          { key: 'device_type', title: 'reportPage.columns.deviceType' },
          C.alarms,
        ],
        rows: report.top_devices.map((d) => ({
          rowKey: String(d.device_id),
          device: d.device_name,
          plant: d.plant_name,
          device_type: d.device_type,
          alarm_count: d.alarm_count,
        })),
        chart: {
          title: 'reportPage.charts.alarmsByPriority',
          unit: '',
          bars: report.by_priority.map((p) => ({ label: priorityLabel(p.priority_id), value: p.count })),
        },
      };
    case 'inverters':
      return {
        columns: [
          { key: 'inverter', title: 'reportPage.columns.inverter' },
          C.plant,
          C.energy,
          C.yield,
          { key: 'relative', title: 'reportPage.columns.relative', percent: true },
        ],
        rows: report.inverters.map((i) => ({
          rowKey: String(i.device_id),
          inverter: i.name,
          plant: i.plant_name,
          energy_kwh: i.energy_kwh,
          specific_yield_kwh_kwp: i.specific_yield_kwh_kwp,
          relative: i.relative_to_plant_mean,
        })),
        chart: {
          title: 'reportPage.charts.yieldByInverter',
          unit: 'kWh/kWp',
          bars: report.inverters.map((i) => ({
            label: `${i.plant_name} · ${i.name}`,
            value: i.specific_yield_kwh_kwp,
          })),
        },
      };
    case 'degradation': {
      const row = (rowKey: string, plant: string, name: string, d: DegradationResult): PreviewRow => ({
        rowKey,
        plant,
        inverter: name,
        rate: d.status === 'ok' ? d.rate_pct_per_year : null,
        ci_low: d.status === 'ok' ? d.ci_low_pct_per_year : null,
        ci_high: d.status === 'ok' ? d.ci_high_pct_per_year : null,
        pairs: d.status === 'ok' ? d.pairs : null,
        data_days: d.span_days,
        status: `reportPage.degradation.${d.status}`,
      });
      return {
        columns: [
          C.plant,
          { key: 'inverter', title: 'reportPage.columns.inverter' },
          { key: 'rate', title: 'reportPage.columns.degradationRate', unit: '%/a', digits: 2 },
          { key: 'ci_low', title: 'reportPage.columns.intervalLow', unit: '%/a', digits: 2 },
          { key: 'ci_high', title: 'reportPage.columns.intervalHigh', unit: '%/a', digits: 2 },
          { key: 'pairs', title: 'reportPage.columns.pairs', digits: 0 },
          { key: 'data_days', title: 'reportPage.columns.dataDays', digits: 0 },
          { key: 'status', title: 'reportPage.columns.status', show: 'key' },
        ],
        rows: report.plants.flatMap((p) => [
          row(String(p.plant_id), p.name, wholePlantLabel, p.degradation),
          ...p.inverters.map((i) => row(`${p.plant_id}-${i.device_id}`, p.name, i.name, i.result)),
        ]),
        chart: {
          title: 'reportPage.charts.degradationByPlant',
          unit: '%/a',
          bars: report.plants.map((p) => ({
            label: p.name,
            value: p.degradation.status === 'ok' ? p.degradation.rate_pct_per_year : null,
          })),
        },
      };
    }
  }
}
