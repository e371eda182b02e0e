import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';

/** Plant budgets: GET/POST plants/{id}/budgets and POST budgets/import (page `plant_management`). */
export const budgetsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (_app, _opts) => Promise.resolve();
