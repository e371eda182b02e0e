import type { EdgeMqttCollectorHealth, ModbusCollectorHealth, MqttCollectorHealth } from '@solar/shared';

/** What each kind of collector reports to the health route. */
export interface CollectorHealthSources {
  mqtt: { health(): MqttCollectorHealth };
  edgeMqtt: { health(): EdgeMqttCollectorHealth };
  modbus: { health(): ModbusCollectorHealth };
}

/**
 * The collectors running on this node, for GET /api/health/collectors. Built complete with the context; a
 * collector attaches itself when it starts and the function `attach` answers detaches it when it stops (as
 * leases register with the metrics), so no one fills the context in afterwards.
 */
export class RunningCollectors {
  private readonly sources: Partial<CollectorHealthSources> = {};

  /** Reports `source` as the running collector of its kind until the answered function is called. */
  attach<K extends keyof CollectorHealthSources>(kind: K, source: CollectorHealthSources[K]): () => void {
    this.sources[kind] = source;
    return () => {
      if (this.sources[kind] === source) delete this.sources[kind];
    };
  }

  /** Each kind's health, null for a kind that does not run here. */
  health(): {
    mqtt: MqttCollectorHealth | null;
    edgeMqtt: EdgeMqttCollectorHealth | null;
    modbus: ModbusCollectorHealth | null;
  } {
    return {
      mqtt: this.sources.mqtt?.health() ?? null,
      edgeMqtt: this.sources.edgeMqtt?.health() ?? null,
      modbus: this.sources.modbus?.health() ?? null,
    };
  }
}
