import type { FastifyInstance } from 'fastify';
import {
  validatorCompiler,
  type FastifyPluginAsyncZod,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import {
  budgetImportAnswer,
  budgetImportBody,
  budgetYearQuery,
  idParam,
  plantBudgetAnswer,
  plantBudgetBody,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { problems } from '../../plugins/openapi';
import { BudgetsService } from './budgets.service';

/** The import's body as it came: JSON, to be parsed on the reader's thread. */
class RawImportBody {
  constructor(readonly bytes: Buffer) {}
}

/** JSON bodies of the context stay bytes (the route's bodyLimit still bounds them). */
function takeJsonAsBytes(context: FastifyInstance): void {
  context.removeContentTypeParser('application/json');
  context.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, raw, done) =>
    done(null, new RawImportBody(raw as Buffer)),
  );
}

/** The bytes the content-type parser kept; anything else is a fault of ours. */
function rawBodyOf(body: unknown): Buffer {
  if (body instanceof RawImportBody) return body.bytes;
  throw new Error('budgets/import: the body was parsed on the event loop');
}

/** Plant budgets: GET/POST plants/{id}/budgets and POST budgets/import (page `plant_management`). */
export const budgetsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new BudgetsService(ctx);
  app.addHook('onClose', () => service.close());
  const tags = ['plants'];

  app.get(
    '/plants/:id/budgets',
    {
      config: { access: access.to('plant_management', 'view') },
      schema: {
        tags,
        summary: "A plant's monthly P50 energy budget for a year",
        operationId: 'getPlantBudgets',
        description:
          'Months without a budget are absent. The KPIs and reports compare actual energy with the budget (pro rata per day) and with the weather-corrected budget: budget × measured / budget irradiation.',
        params: idParam,
        querystring: budgetYearQuery,
        response: { 200: plantBudgetAnswer },
      },
    },
    (request) => service.get(actorOf(request), request.params.id, request.query.year),
  );

  app.post(
    '/plants/:id/budgets',
    {
      config: { access: access.to('plant_management', 'update') },
      schema: {
        tags,
        summary: "Replace a plant's monthly budget for a year",
        operationId: 'savePlantBudgets',
        params: idParam,
        body: plantBudgetBody,
        response: { 200: plantBudgetAnswer },
      },
    },
    (request) => service.save(actorOf(request), request.params.id, request.body),
  );

  // The import in a context of its own: only its JSON bodies (up to 12 MB) are handed over unparsed, and
  // parsed, checked and decoded on the reader's thread, off the event loop (docs/security.md, "Uploads").
  app.register((context, _options, done) => {
    takeJsonAsBytes(context);
    context.withTypeProvider<ZodTypeProvider>().post(
      '/budgets/import',
      {
        config: { access: access.to('plant_management', 'update') },
        bodyLimit: 12 * 1024 * 1024,
        schema: {
          tags,
          summary: 'Import monthly budgets of many plants from a CSV or XLSX file',
          operationId: 'importBudgets',
          description:
            'The file (base64) has a header row `plant_id, year, month, energy_kwh, irradiation_kwh_m2` (the last may be left out or empty), then a row per plant and month; CSV with `,`, `;` or tab, decimal point or comma. Every row is checked first: one bad row answers 400 `errors.budgetImportInvalid` with `errors` keyed `line N: column` (the header is line 1) and nothing is imported. Rows replace the same plant-months. The file is read on a thread of its own within limits (docs/security.md, "Uploads"): past 12,000 rows, 240,000 cells, 32 MB inflated sheet or 10 s it answers 400 (`validation.tooMany` on the first line too many, or `validation.fileTooLarge`); while the caller or the server already reads as many files as allowed (1 and 2), 429 `errors.budgetImportBusy` with `Retry-After`.',
          body: budgetImportBody,
          response: { 200: budgetImportAnswer, ...problems(429) },
        },
        // The schema is the contract and the OpenAPI document's; it is checked on the reader's thread.
        validatorCompiler: (route) => {
          const zod = validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
          if (route.httpPart !== 'body') return zod;
          return (data) => (data instanceof RawImportBody ? { value: data } : zod(data));
        },
      },
      (request) => service.import(actorOf(request), rawBodyOf(request.body)),
    );
    done();
  });
  return Promise.resolve();
};
