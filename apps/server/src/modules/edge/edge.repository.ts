import { EDGE_PROTOCOLS } from '@solar/shared';
import type { Db } from '../../db/database';
import type { EdgeAgentsTable } from '../../db/schema';
import { reachable, type Scope } from '../../lib/scope';

/** The plant an agent's key belongs to, with its zone; undefined when it is gone. */
export async function findPlant(db: Db, plantId: number) {
  return db
    .selectFrom('plants')
    .select(['id', 'name', 'time_zone'])
    .where('id', '=', plantId)
    .executeTakeFirst();
}

/** The plant's active Modbus devices (what an agent polls), by id. */
export async function readEdgeDevices(db: Db, plantId: number) {
  return db
    .selectFrom('devices')
    .select([
      'id',
      'name',
      'type',
      'protocol',
      'ip',
      'port',
      'slave_id',
      'baud_rate',
      'serial_path',
      'poll_interval_s',
    ])
    .where('plant_id', '=', plantId)
    .where('is_active', '=', 1)
    .where('protocol', 'in', [...EDGE_PROTOCOLS])
    .orderBy('id')
    .execute();
}

/** The active signals with a register of these devices, by device then id. */
export async function readEdgeSignals(db: Db, deviceIds: readonly number[]) {
  if (!deviceIds.length) return [];
  return db
    .selectFrom('signals')
    .select([
      'id',
      'device_id',
      'key',
      'data_type',
      'register_type',
      'address',
      'word_order',
      'scale',
      'scale_factor_address',
      'sunspec_type',
      'value_map',
      'is_counter',
    ])
    .where('device_id', 'in', deviceIds)
    .where('is_active', '=', 1)
    .where('register_type', 'is not', null)
    .where('address', 'is not', null)
    .orderBy('device_id')
    .orderBy('id')
    .execute();
}

export async function findAgent(db: Db, plantId: number, agentId: string) {
  return db
    .selectFrom('edge_agents')
    .select(['clock_flag_from'])
    .where('plant_id', '=', plantId)
    .where('agent_id', '=', agentId)
    .executeTakeFirst();
}

/** Stores an agent's latest report in place of the one before. */
export async function saveAgent(db: Db, row: EdgeAgentsTable): Promise<void> {
  const { plant_id: _plant, agent_id: _agent, ...rest } = row;
  await db
    .insertInto('edge_agents')
    .values(row)
    .onConflict((oc) => oc.columns(['plant_id', 'agent_id']).doUpdateSet(rest))
    .execute();
}

/** The agents of the plants the scope reaches, with their plant's name and zone. */
export async function readAgents(db: Db, scope: Scope) {
  let q = db
    .selectFrom('edge_agents')
    .innerJoin('plants', 'plants.id', 'edge_agents.plant_id')
    .selectAll('edge_agents')
    .select(['plants.name as plant_name', 'plants.time_zone']);
  if (!scope.all) q = q.where('plants.id', 'in', reachable.plants(db, scope));
  return q.orderBy('plants.name').orderBy('edge_agents.agent_id').execute();
}

/** Every agent's last report time, for the alarm engine's silence check. */
export async function readAgentReports(db: Db) {
  const rows = await db
    .selectFrom('edge_agents')
    .innerJoin('plants', 'plants.id', 'edge_agents.plant_id')
    .select(['edge_agents.plant_id', 'edge_agents.agent_id', 'edge_agents.last_report_at'])
    .where('plants.is_active', '=', 1)
    .execute();
  return rows.map((r) => ({
    plant_id: r.plant_id,
    agent_id: r.agent_id,
    last_report_at: Number(r.last_report_at),
  }));
}
