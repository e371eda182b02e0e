import { V, type Topology, type TopologyPositionsBody } from '@solar/shared';
import type { AppContext } from '../../context';
import { found, type Actor } from '../../lib/actor';
import { recordAudit } from '../audit';
import { badRequest } from '../../lib/http-errors';
import { scopeOf } from '../../lib/scope';
import type { Db } from '../../db/database';
import { buildTopology } from './topology-graph';
import * as repo from './topology.repository';

async function topologyOf(db: Db, plant: { id: number; name: string }): Promise<Topology> {
  const [devices, positions] = await Promise.all([
    repo.plantDevices(db, plant.id),
    repo.positions(db, plant.id),
  ]);
  return buildTopology(plant, devices, positions);
}

/** Saved positions as a plain object, for the audit log. */
const positionsOf = (topology: Topology) =>
  Object.fromEntries(topology.nodes.filter((n) => n.position).map((n) => [n.id, n.position]));

/** The single-line diagram of a plant: its graph, and the node positions dragged on the page. */
export class TopologyService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  async get(actor: Actor, plantId: number): Promise<Topology> {
    const plant = found(await repo.findPlant(this.ctx.db, scopeOf(actor), plantId));
    return topologyOf(this.ctx.db, plant);
  }

  /** Merges the positions into the saved ones; 400 names any node that is not in the plant's graph. */
  async savePositions(
    actor: Actor,
    plantId: number,
    body: Required<Pick<TopologyPositionsBody, 'positions'>>,
  ): Promise<Topology> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const plant = found(await repo.findPlant(trx, scopeOf(actor), plantId));
      const before = await topologyOf(trx, plant);
      const known = new Set(before.nodes.map((n) => n.id));
      const unknown: Record<string, string[]> = {};
      body.positions.forEach((p, i) => {
        if (!known.has(p.node_id)) unknown[`positions.${i}.node_id`] = [V.invalidValue];
      });
      if (Object.keys(unknown).length) throw badRequest(unknown);
      const now = this.ctx.now();
      for (const { node_id, position } of body.positions) {
        if (position) {
          await repo.savePosition(trx, {
            plant_id: plant.id,
            node_id,
            x_px: position.x_px,
            y_px: position.y_px,
            updated_by: actor.userId,
            updated_at: now,
          });
        }
      }
      await repo.forgetPositions(
        trx,
        plant.id,
        body.positions.filter((p) => !p.position).map((p) => p.node_id),
      );
      const after = await topologyOf(trx, plant);
      await recordAudit(trx, {
        userId: actor.userId,
        action: 'update',
        entity: 'single_line',
        entityId: plant.id,
        before: positionsOf(before),
        after: positionsOf(after),
        ip: actor.ip,
        at: now,
      });
      return after;
    });
  }
}
