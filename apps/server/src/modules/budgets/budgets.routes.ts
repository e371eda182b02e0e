import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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

  app.post(
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
    },
    (request) => service.import(actorOf(request), request.body),
  );
  return Promise.resolve();
};
