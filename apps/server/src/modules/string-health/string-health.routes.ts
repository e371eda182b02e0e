import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceStringsAnswer, deviceStringsQuery, idParam } from '@solar/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor-of';
import { access } from '../../plugins/auth';
import { StringHealthService } from './string-health.service';

/** An inverter's strings over a day, for the inverter page (page `dashboard`): docs/string-health.md. */
export const stringHealthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const service = new StringHealthService(ctx);

  app.get(
    '/devices/:id/strings',
    {
      config: { access: access.to('dashboard', 'view') },
      schema: {
        tags: ['devices'],
        summary:
          "An inverter's string currents, their ratio to the siblings' median and the string faults of a day",
        operationId: 'getDeviceStrings',
        description:
          "The plant's local `date` (default its today) in 15-minute intervals: each string's (`string{n}_dc_current`) mean current and its mean ratio to the median of the inverter's strings over the 5-minute intervals judged (plane-of-array irradiance above 200 W/m², or AC power above 20 % of the rating without a sensor; median at least 0.5 A; at least 3 strings); null where there is no data or no judgement. A string under `ratio_threshold` of the median for `sustain_minutes` of judged time is a fault; faults overlapping the day are judged from the day before, with the energy lost as (median − current) × the string's (or the inverter's DC) voltage. Beside it the plant-wide reference (`plant_peers`, per string `plant_ratio`, `plant_faults`): the same rule against the median of the strings of the plant's inverters with the same rating and string count (at least three such inverters, else null), which finds an inverter whose strings are all low together. 404 for a device that is not an inverter or not in the caller's scope.",
        params: idParam,
        querystring: deviceStringsQuery,
        response: { 200: deviceStringsAnswer },
      },
    },
    (request) => service.strings(actorOf(request), request.params.id, request.query),
  );
  return Promise.resolve();
};
