import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  HISTORY_IMPORT_MAX_BASE64,
  historyImportJob,
  historyImportList,
  historyImportMapping,
  historyImportPreview,
  historyImportUploadBody,
  idParam,
} from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { problems } from '../../plugins/openapi';
import { HistoryImportService } from './history-import.service';

/**
 * History import from other systems (docs/history-import.md), on the device management page: upload,
 * preview of a mapping, run in the background, progress.
 */
export const historyImportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new HistoryImportService(ctx, app.log);
  // Imports whose process died during their run are taken up again once the app is ready.
  app.addHook('onReady', () => {
    service.start();
    return Promise.resolve();
  });
  app.addHook('onClose', () => service.close());
  const tags = ['devices'];

  app.get(
    '/plants/:id/history-imports',
    {
      config: { access: access.to('device_management', 'view') },
      schema: {
        tags,
        summary: "A plant's latest history imports",
        operationId: 'listHistoryImports',
        params: idParam,
        response: { 200: historyImportList },
      },
    },
    (request) => service.list(actorOf(request), request.params.id),
  );

  app.post(
    '/plants/:id/history-imports',
    {
      config: { access: access.to('device_management', 'create') },
      // The base64 text of the largest file, and room for the JSON around it.
      bodyLimit: HISTORY_IMPORT_MAX_BASE64 + 64 * 1024,
      schema: {
        tags,
        summary: 'Upload a history file (CSV or XLSX) of a plant',
        operationId: 'uploadHistoryImport',
        description:
          'The file is read and its shape detected (delimiter, decimal mark, header row, time column and format, one table per sheet); every time and figure cell is checked, and a malformed one answers 400 `errors.historyImportInvalid` with `errors` keyed `line N: C` (the sheet first in a workbook, `Sheet / line N: C`). Nothing but the file is stored; 429 `errors.budgetImportBusy` while as many files are being read as allowed.',
        params: idParam,
        body: historyImportUploadBody,
        response: { 200: historyImportJob, ...problems(429) },
      },
    },
    (request) => service.upload(actorOf(request), request.params.id, request.body),
  );

  app.get(
    '/history-imports/:id',
    {
      config: { access: access.to('device_management', 'view') },
      schema: {
        tags,
        summary: 'A history import and its progress',
        operationId: 'getHistoryImport',
        params: idParam,
        response: { 200: historyImportJob },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/history-imports/:id/preview',
    {
      config: { access: access.to('device_management', 'update') },
      schema: {
        tags,
        summary: 'What a mapping would import, with its quality report; stores nothing',
        operationId: 'previewHistoryImport',
        params: idParam,
        body: historyImportMapping,
        response: { 200: historyImportPreview, ...problems(429) },
      },
    },
    (request) => service.preview(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/history-imports/:id/run',
    {
      config: { access: access.to('device_management', 'update') },
      schema: {
        tags,
        summary: 'Start the import in the background',
        operationId: 'runHistoryImport',
        description:
          "Points already stored are not written again (a second import of the same file stores 0 new points); values outside the signal's bounds and future timestamps are left out, as ingest refuses them; points older than the raw retention are stored as rollups only. 409 `errors.historyImportNotEditable` while the import is queued or running.",
        params: idParam,
        body: historyImportMapping,
        response: { 200: historyImportJob, ...problems(409, 429) },
      },
    },
    (request) => service.run(actorOf(request), request.params.id, request.body),
  );
  return Promise.resolve();
};
