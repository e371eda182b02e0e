import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  fleetLossesAnswer,
  fleetLossesQuery,
  idParam,
  inverterSummaryAnswer,
  kpiDateQuery,
  plantDeviceStatusAnswer,
  plantKpisAnswer,
  plantKpisQuery,
  plantPowerAnswer,
  plantsOverviewAnswer,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { localDate } from '../../telemetry-store/buckets';
import { PerformanceService } from '../performance';
import { DeviceStatusService } from './device-status.service';
import { FleetLossesService } from './fleet-losses.service';
import { KpiService } from './kpi.service';
import { PlantsOverviewService } from './overview.service';

/** The model behind every KPI answer, for the OpenAPI document. */
const MODEL = [
  "KPIs follow IEC 61724-1:2021 over the plant's local day (its IANA time zone; 23 or 25 h on DST days), from 5-minute rollups.",
  "Energy E: the grid meter's export counter when the plant has one with readings (`energy_source: meter`), else the sum of the inverters' lifetime counters (`inverters`).",
  'Final yield Yf = E / P0 (P0 = `model.dc_capacity_kwp`); reference yield Yr = H_POA / G_ref (G_ref = 1 kW/m²); PR = Yf / Yr over intervals with both energy and irradiance.',
  "H_POA: the station's plane-of-array irradiance (`irradiance_source: measured`), else its GHI transposed with the plant's tilt and azimuth (Erbs + isotropic sky, `transposed`).",
  'Expected power (PVWatts, Dobos 2014): P_exp = P0 × G_POA/1000 × (1 + γ (T_mod − 25 °C)) × (1 − system losses), γ = `model.temperature_coefficient_per_k`, losses = `model.system_loss_fraction`; not capped at the AC capacity.',
  'Temperature-corrected PR (NREL, Dierauf et al. 2013): E / Σ P0 × G/1000 × (1 + γ (T_mod − 25)) Δt.',
  "Losses (kWh, adding up to expected − actual): clipping above `model.ac_capacity_kw`; downtime of inverters with data, no energy and POA > 50 W/m² at their rated share; communication gaps (estimated, never downtime); grid curtailment; the remaining underperformance. Grid curtailment: an interval in which the meter's `grid_available` read 0 (grid outage: every inverter) or an inverter's `active_power_limit_pct` (SunSpec model 123 WMaxLimPct in force) was below 100 %; the excused inverters' shortfall of that interval is grid curtailment, neither downtime nor unavailability.",
  'Availability: time-based share of daylight intervals the inverters produced in, weighted by rated AC power; energy-based per IEC TS 63019. Data completeness: received / expected samples by poll interval.',
  "CO₂ avoided = E × the grid factor of the plant's country, from its time zone (`model.co2_factor_*`, with its source and year): the administrator's override for the country (GET /api/admin/co2-factors), else the built-in table's, else DEFAULT; `model.co2_factor_origin` says whether it is an override.",
  'Finished days are materialised in kpi_daily and recomputed when late data arrives; today is computed live. A month or year sums the days and recomputes the ratios.',
].join('\n\n');

/** GET plants/overview, plants/{id}/kpis, plants/{id}/power (page `plant`) and inverters/{id}/summary (page `dashboard`). */
export const kpiRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new KpiService(ctx);
  const fleet = new PlantsOverviewService(ctx, service);
  const fleetLosses = new FleetLossesService(ctx, service);
  const performance = new PerformanceService(ctx);
  const tags = ['kpi'];

  app.get(
    '/plants/overview',
    {
      config: { access: access.toAny(['plant', 'map', 'single_line'], 'view') },
      schema: {
        tags,
        summary: 'Every plant in scope with status, live power, energy, PR and active alarms',
        operationId: 'getPlantsOverview',
        description:
          'One call for the map, the plants list and the single-line plant picker: view on `plant`, `map` or `single_line` opens it. Status: fault (active alarm of priority ≥ 3), offline (no device reporting), warning (other alarms), night (sun below the horizon), normal. PR today uses hourly POA means so far; PR yesterday comes from the materialised day.\n\n' +
          MODEL,
        response: { 200: plantsOverviewAnswer },
      },
    },
    (request) => fleet.overview(actorOf(request)),
  );

  app.get(
    '/plants/losses',
    {
      config: { access: access.to('plant', 'view') },
      schema: {
        tags,
        summary:
          'Every plant in scope over a local day, month or year: expected and actual energy, the loss by cause, availability and PR',
        operationId: 'getFleetLosses',
        description:
          "Where the fleet lost energy. `date` is each plant's local date (absent: each plant's yesterday); each item holds the figures GET plants/{id}/kpis answers for the same plant and period, and `top_loss`, the cause with the most energy (null when the plant met or beat its model: a negative `losses.total_kwh` is energy above expectation).\n\n" +
          MODEL,
        querystring: fleetLossesQuery,
        response: { 200: fleetLossesAnswer },
      },
    },
    (request) => fleetLosses.losses(actorOf(request), request.query.period, request.query.date),
  );

  app.get(
    '/plants/:id/kpis',
    {
      config: { access: access.to('plant', 'view') },
      schema: {
        tags,
        summary: 'KPIs of a plant for a local day, month or year',
        operationId: 'getPlantKpis',
        description:
          MODEL +
          "\n\n`performance`: the plant's degradation and the period's soiling loss as GET plants/{id}/performance answers them (its `degradation.plant`, and its `soiling_period` with `from`/`to` the period's first and last local date), each with its interval and the data span it rests on, or `insufficient_data` with the span found and needed; never a second computation.",
        params: idParam,
        querystring: plantKpisQuery,
        response: { 200: plantKpisAnswer },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      // Checked and loaded once for both parts of the answer.
      const target = await service.plantOf(actor, request.params.id);
      const kpis = await service.kpis(target, request.query.period, request.query.date);
      // The period's first and last local date (its end is exclusive): the performance module's soiling
      // period. Composed here, not in the kpi service: the performance module reads the kpi module.
      const last = Date.parse(kpis.to) - 1;
      const figures = await performance.kpiFigures(
        target,
        localDate(Date.parse(kpis.from), kpis.time_zone),
        localDate(last, kpis.time_zone),
      );
      return { ...kpis, performance: figures };
    },
  );

  app.get(
    '/plants/:id/power',
    {
      config: { access: access.to('plant', 'view') },
      schema: {
        tags,
        summary: "A day's 5-minute actual power, expected power and POA irradiance",
        operationId: 'getPlantPower',
        description:
          "Actual power (`actual_power_kw`) = Σ inverter counter energy in the interval / its length; `meter_power_kw` = the meter's export in the interval / its length (null without a meter reading), whose day's sum is the plant's energy when `energy_source` is `meter`; the difference is cable, transformer and own-use loss. Expected power as in the KPI model.\n\n" +
          MODEL,
        params: idParam,
        querystring: kpiDateQuery,
        response: { 200: plantPowerAnswer },
      },
    },
    (request) => service.power(actorOf(request), request.params.id, request.query.date),
  );

  app.get(
    '/inverters/:id/summary',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        tags,
        summary: 'Live values, energy and specific yield of an inverter against its plant',
        operationId: 'getInverterSummary',
        description:
          "Latest AC/DC power, efficiency (AC/DC), DC voltage and current per MPPT (SunSpec model 160) where reported, temperature and status code with its i18n key; energy of the chosen day from the lifetime counter, lifetime energy (a counter of 0 is unknown, as SunSpec reads it), and specific yield against every inverter of the plant (each inverter's kWp = plant P0 × its rated AC power / Σ rated AC power).",
        params: idParam,
        querystring: kpiDateQuery,
        response: { 200: inverterSummaryAnswer },
      },
    },
    (request) => service.inverterSummary(actorOf(request), request.params.id, request.query.date),
  );

  const deviceStatus = new DeviceStatusService(ctx);
  app.get(
    '/plants/:id/devices/status',
    {
      config: { access: access.toAny(['plant', 'single_line', 'dashboard'], 'view') },
      schema: {
        tags,
        summary: 'Status, communication, last data and active alarms of every device of a plant',
        operationId: 'getPlantDeviceStatus',
        description:
          "The plant's one status rule applied to each device (active or not), first match wins: fault (an active alarm of the device's own of priority ≥ 3 other than communication loss), offline (communication `lost`: no sample of any of its active signals for three poll intervals, at least 5 minutes, or ever; a camera, which sends no telemetry, when the camera probe got no image for three probe intervals, or never), warning (any other active alarm of its own), night (the sun below the horizon at the plant's coordinates; a plant without coordinates is always in daylight), normal. A camera never probed (no snapshot address, or no probe yet) has communication `unknown` and status null unless an alarm of its own makes it a fault or a warning. Active alarms are counted by priority (1 low, 2 medium, 3 high, 4 high and dangerous). View on `plant`, `single_line` or `dashboard` opens it; another company's plant answers 404.",
        params: idParam,
        response: { 200: plantDeviceStatusAnswer },
      },
    },
    (request) => deviceStatus.list(actorOf(request), request.params.id),
  );
  return Promise.resolve();
};
