import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { problems } from '../../plugins/openapi';
import { CameraFailure, CamerasService } from './cameras.service';

/** Camera bytes are shown as images only: no script, no plugin, no framing, not cached. */
const IMAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
};

/** Bytes sent as they are (a Buffer or a stream); documented as a binary string. */
const bytes = z
  .custom<Buffer | Readable>((v) => Buffer.isBuffer(v) || v instanceof Readable)
  .meta({
    type: 'string',
    format: 'binary',
  });
/** 404 is derived from the id parameter; these are the proxy's own: no usable address, no image (any reason). */
const errors = problems(409, 502);

/** The reason a camera gave nothing goes to the log; the client only ever sees the one 502. */
function logFailure(log: FastifyBaseLogger, cameraId: number) {
  return (error: unknown): never => {
    if (error instanceof CameraFailure) {
      const reason = error.reason instanceof Error ? error.reason.message : String(error.reason);
      log.warn({ cameraId, reason }, 'camera proxy: no image');
    }
    throw error;
  };
}

/** GET /api/cameras/{id}/snapshot and /stream: the camera proxy (page dashboard, view). */
export const camerasRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new CamerasService(ctx);
  const tags = ['cameras'];

  app.get(
    '/cameras/:id/snapshot',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        tags,
        summary: "A still image from the camera's stored snapshot address (JPEG or PNG, at most 5 MB)",
        operationId: 'getCameraSnapshot',
        params: idParam,
        response: {
          200: {
            description: 'The image, checked to be a JPEG or PNG by its type and its first bytes',
            content: { 'image/jpeg': { schema: bytes }, 'image/png': { schema: bytes } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const snapshot = await service
        .snapshot(actorOf(request), request.params.id)
        .catch(logFailure(request.log, request.params.id));
      return reply.headers(IMAGE_HEADERS).type(snapshot.contentType).send(snapshot.body);
    },
  );

  app.get(
    '/cameras/:id/stream',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        tags,
        summary:
          "The camera's MJPEG stream, re-encoded frame by frame (multipart/x-mixed-replace of JPEG/PNG parts with Content-Length) at most 5 frames a second, one camera connection shared by every viewer; ends when the client goes away",
        operationId: 'getCameraStream',
        params: idParam,
        response: {
          200: {
            description: 'Frames as they come, until the camera or the client ends the stream',
            content: { 'multipart/x-mixed-replace': { schema: bytes } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const viewer = await service
        .stream(actorOf(request), request.params.id)
        .catch(logFailure(request.log, request.params.id));
      // The viewer lives exactly as long as the client's connection; the last one closes the camera's.
      reply.raw.on('close', () => viewer.close());
      return reply
        .headers({ ...IMAGE_HEADERS, 'x-accel-buffering': 'no' })
        .type(viewer.contentType)
        .send(viewer.body);
    },
  );
  return Promise.resolve();
};
