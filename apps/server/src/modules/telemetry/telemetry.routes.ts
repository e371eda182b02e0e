import type { FastifyRequest } from 'fastify';
import {
  validatorCompiler,
  type FastifyPluginAsyncZod,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import {
  energyAnswer,
  energyQuery,
  idParam,
  ingestCountsAnswer,
  ingestKeyAnswer,
  ingestKeyInfo,
  latestAnswer,
  latestQuery,
  telemetryAnswer,
  telemetryCatalogAnswer,
  telemetryCatalogQuery,
  telemetryExportQuery,
  telemetryIngestAnswer,
  telemetryIngestBody,
  telemetryQuery,
} from '@solar/shared';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { binaryFile, noContent, problems } from '../../plugins/openapi';
import { INGEST_COLUMN_LIMITS, parseIngestFast } from './fast-ingest';
import { parseLargeBodiesOnThread, ThreadCheckedBody } from './ingest-body-parser';
import { IngestParseThread } from './ingest-parse-thread';
import { IngestKeysService } from './ingest-keys.service';
import { exportPartOf } from './telemetry.export';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
import { latestAnswerSerializer, telemetryAnswerSerializer } from './telemetry.serializer';
import { TelemetryService, type Sender } from './telemetry.service';

/** The sender of an ingest request: its X-Api-Key owner, else the signed-in user. */
function senderOf(request: FastifyRequest): Sender {
  return request.ingestKey ? { key: request.ingestKey } : { actor: actorOf(request) };
}

/**
 * POST /api/telemetry (ingest), GET /api/telemetry (series), /catalog, /latest, /energy, /export, and the
 * ingest keys of devices and plants.
 */
export const telemetryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new TelemetryService(ctx);
  const keys = new IngestKeysService(ctx);
  const tags = ['telemetry'];

  // Ingest in a context of its own: only its JSON parser hands large bodies to the parse thread.
  const parseThread = new IngestParseThread(INGEST_COLUMN_LIMITS, (details, message) =>
    app.log.warn(details, message),
  );
  app.addHook('onClose', () => parseThread.close());
  app.register((context, _options, done) => {
    parseLargeBodiesOnThread(context, parseThread, (parsedOn) => ctx.metrics.countIngestBody(parsedOn));
    context.withTypeProvider<ZodTypeProvider>().post(
      '/telemetry',
      {
        config: { access: access.ingest('device_management', 'update') },
        schema: {
          summary: 'Store telemetry points (ingest)',
          operationId: 'ingestTelemetry',
          tags,
          description:
            'Up to 10,000 points. Authenticated by `X-Api-Key` (a device or plant ingest key) or a user token with device_management/update. A malformed body stores nothing (400); single points are refused with a reason.',
          body: telemetryIngestBody,
          response: { 200: telemetryIngestAnswer },
        },
        // The zod schema is the contract; the common numeric shape takes a checked fast path with the same result.
        validatorCompiler: (route) => {
          const zod = validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
          if (route.httpPart !== 'body') return zod;
          return (data) => {
            // Checked on the parse thread: its columns go to the service, which takes both shapes.
            if (data instanceof ThreadCheckedBody) return { value: data.columns };
            const fast = parseIngestFast(data);
            return fast ? { value: fast } : zod(data);
          };
        },
      },
      (request) => service.ingest(senderOf(request), request.body),
    );
    done();
  });

  app.get(
    '/telemetry',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        summary: 'Query telemetry series of signals',
        operationId: 'getTelemetry',
        tags,
        querystring: telemetryQuery,
        response: { 200: telemetryAnswer, ...problems(404) },
      },
      // The app-wide zod serializer's contract without its walk over every point (telemetry.serializer.ts).
      serializerCompiler: (route) =>
        telemetryAnswerSerializer(route as unknown as Parameters<typeof telemetryAnswerSerializer>[0]),
    },
    async (request) => {
      const answer = await service.query(actorOf(request), request.query);
      return { ...answer, series: answer.series.map(({ time_zone: _zone, ...s }) => s) };
    },
  );

  app.get(
    '/telemetry/catalog',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        summary: 'Plants, devices and signals to chart',
        operationId: 'getTelemetryCatalog',
        tags,
        description:
          'Plants, devices and signals to choose on the data page, for anyone with dashboard/view: the active plants in reach by name; with `plant_id` also its active devices and their active signals. An unknown or unreachable plant is 404.',
        querystring: telemetryCatalogQuery,
        response: { 200: telemetryCatalogAnswer, ...problems(404) },
      },
    },
    (request) => service.catalog(actorOf(request), request.query),
  );

  app.get(
    '/telemetry/latest',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        summary: 'Latest value of each signal of a device or plant',
        operationId: 'getLatestTelemetry',
        tags,
        querystring: latestQuery,
        response: { 200: latestAnswer, ...problems(404) },
      },
      // The app-wide zod serializer's contract without its walk over every value (telemetry.serializer.ts).
      serializerCompiler: (route) =>
        latestAnswerSerializer(route as unknown as Parameters<typeof latestAnswerSerializer>[0]),
    },
    (request) => service.latest(actorOf(request), request.query),
  );

  app.get(
    '/telemetry/energy',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        summary: 'Energy of a plant or device per day, month or year',
        operationId: 'getEnergy',
        tags,
        description:
          "Every period in [from, to] (the plant's local dates), `energy_kwh` null where nothing was counted. A plant's `energy_kwh` is the figure of its KPIs (GET plants/{id}/kpis, the reports): the grid meter's export counter when it has readings (`source: meter`), else the sum of its active inverters' counters (`inverters`); `inverter_sum_kwh` is that sum beside it (with a meter, the difference is cable, transformer and own-use loss). A device's is its own `total_energy` counter (`source: device`). Counters in Wh or MWh count in kWh.",
        querystring: energyQuery,
        response: { 200: energyAnswer, ...problems(404) },
      },
    },
    (request) => service.energy(actorOf(request), request.query),
  );

  app.get(
    '/telemetry/export',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        summary: 'Download telemetry series as CSV or XLSX',
        operationId: 'exportTelemetry',
        tags,
        description:
          "The series of GET /api/telemetry with a plant column, as CSV (UTC and plant-local time; `delimiter` comma, or semicolon/tab with a decimal comma; UTF-8 BOM; text a spreadsheet would run as a formula prefixed with ') or an XLSX workbook (timestamps as date cells, values as number cells, formula-like text as Text-formatted string cells). Files are built on a small pool of threads; a user with as many files in the making as one may have (FILE_BUILDS_PER_USER, 2) is answered 429 errors.tooManyFileBuilds with Retry-After.",
        querystring: telemetryExportQuery,
        response: {
          200: {
            description: 'The series as an attachment: CSV by default, an XLSX workbook with `format=xlsx`.',
            content: {
              'text/csv': { schema: z.string() },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: binaryFile },
            },
          },
          ...problems(404, 429),
        },
      },
    },
    async (request, reply) => {
      const { format, delimiter, ...query } = request.query;
      const actor = actorOf(request);
      const answer = await service.exportSeries(actor, query);
      const name = `telemetry-${answer.from.slice(0, 10)}-${answer.resolution}`;
      // Written on a build thread (file-builds/) as the series are read, a few signals at a time.
      const file = await ctx.fileBuilds.build(
        actor.userId,
        { kind: 'telemetry', format, delimiter },
        async (send) => {
          for await (const series of answer.series) {
            const part = exportPartOf(series);
            await send({ series: part }, [part.ts.buffer as ArrayBuffer, part.value.buffer as ArrayBuffer]);
          }
        },
      );
      return reply
        .type(format === 'xlsx' ? XLSX_TYPE : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}.${format}"`)
        .send(file);
    },
  );

  app.get(
    '/devices/:id/ingest-counts',
    {
      config: { access: access.toAny(['device_management', 'device_signals'], 'view') },
      schema: {
        summary: 'Points of a device refused or duplicated at ingest, per reason',
        operationId: 'getDeviceIngestCounts',
        tags,
        description:
          'How many points of the device every way in (HTTP, MQTT, Modbus) refused, per reason (epoch seconds, future, too old, not finite, out of range, unknown or inactive signal, out of scope), and how many repeated a stored point: `duplicate_identical` with the same value, `duplicate_conflicting` with another one (the stored value is kept). Counted since the device exists; reasons that never happened are absent. An unknown or unreachable device is 404.',
        params: idParam,
        response: { 200: ingestCountsAnswer, ...problems(404) },
      },
    },
    (request) => service.ingestCounts(actorOf(request), request.params.id),
  );

  for (const [owner, page] of [
    ['devices', 'device_management'],
    ['plants', 'plant_management'],
  ] as const) {
    const ownerOf = (id: number) => (owner === 'devices' ? { device_id: id } : { plant_id: id });
    // One operation per owner kind in the OpenAPI document, so each needs its own name.
    const noun = owner === 'devices' ? 'Device' : 'Plant';
    app.post(
      `/${owner}/:id/ingest-key`,
      {
        config: { access: access.to(page, 'update') },
        schema: {
          summary: `Create or rotate the ingest key of a ${noun.toLowerCase()}`,
          operationId: `create${noun}IngestKey`,
          tags,
          description:
            'Creates or rotates the ingest key (the previous one stops working). The key is answered only here.',
          params: idParam,
          response: { 200: ingestKeyAnswer },
        },
      },
      (request) => keys.create(actorOf(request), ownerOf(request.params.id)),
    );
    app.get(
      `/${owner}/:id/ingest-key`,
      {
        config: { access: access.to(page, 'view') },
        schema: {
          summary: `Whether a ${noun.toLowerCase()} has an ingest key, and since when`,
          operationId: `get${noun}IngestKey`,
          tags,
          params: idParam,
          response: { 200: ingestKeyInfo },
        },
      },
      (request) => keys.info(actorOf(request), ownerOf(request.params.id)),
    );
    app.delete(
      `/${owner}/:id/ingest-key`,
      {
        config: { access: access.to(page, 'update') },
        schema: {
          summary: `Revoke the ingest key of a ${noun.toLowerCase()}`,
          operationId: `revoke${noun}IngestKey`,
          tags,
          params: idParam,
          response: { 204: noContent },
        },
      },
      async (request, reply) => {
        await keys.revoke(actorOf(request), ownerOf(request.params.id));
        return reply.code(204).send();
      },
    );
  }
  return Promise.resolve();
};
