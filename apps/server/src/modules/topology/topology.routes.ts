import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, topologyAnswer, topologyPositionsBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { TopologyService } from './topology.service';

/** GET plants/{id}/topology and POST plants/{id}/topology/positions: the single-line page (single_line). */
export const topologyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new TopologyService(ctx);
  const tags = ['single line'];

  app.get(
    '/plants/:id/topology',
    {
      config: { access: access.to('single_line', 'view') },
      schema: {
        tags,
        summary:
          "The plant's single-line graph: grid connection, busbars and devices, edges and saved positions",
        operationId: 'getPlantTopology',
        params: idParam,
        response: { 200: topologyAnswer },
      },
    },
    (request) => service.get(actorOf(request), request.params.id),
  );

  app.post(
    '/plants/:id/topology/positions',
    {
      config: { access: access.to('single_line', 'update') },
      schema: {
        tags,
        summary:
          'Saves dragged node positions of the single-line diagram (null forgets one); answers the graph',
        operationId: 'savePlantTopologyPositions',
        params: idParam,
        body: topologyPositionsBody,
        response: { 200: topologyAnswer },
      },
    },
    (request) => service.savePositions(actorOf(request), request.params.id, request.body),
  );
  return Promise.resolve();
};
