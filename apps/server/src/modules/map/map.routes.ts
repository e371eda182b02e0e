import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mapSettingsAnswer } from '@solar/shared';
import type { AppContext } from '../../context';
import { access } from '../../plugins/auth';

/** GET map/settings (page `map`): the base layer the map draws its plants on. */
export const mapRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/map/settings',
    {
      config: { access: access.to('map', 'view') },
      schema: {
        tags: ['map'],
        summary: "The map's tile server and attribution",
        operationId: 'getMapSettings',
        description:
          "The tile URL template comes from the admin panel's settings, else MAP_TILE_URL (OpenStreetMap by default); the Content-Security-Policy allows images from its host only. Plants come from GET plants/overview.",
        response: { 200: mapSettingsAnswer },
      },
    },
    () => {
      // The admin panel's tile server (MAP_TILE_URL until one is saved), as the CSP admits it.
      const { map_tile_url, map_tile_attribution } = ctx.settings.current();
      return { tile_url: map_tile_url, tile_attribution: map_tile_attribution };
    },
  );
  return Promise.resolve();
};
