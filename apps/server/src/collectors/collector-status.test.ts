import { describe, expect, it } from 'vitest';
import type { MqttCollectorHealth } from '@solar/shared';
import { RunningCollectors } from './collector-status';

const mqttReporting = (received: number) => ({
  health: () => ({ received }) as unknown as MqttCollectorHealth,
});

describe('RunningCollectors', () => {
  it('reports a collector while it is attached, and a late detach of a replaced one keeps its successor', () => {
    const collectors = new RunningCollectors();
    expect(collectors.health()).toEqual({ mqtt: null, edgeMqtt: null, modbus: null });
    const detachFirst = collectors.attach('mqtt', mqttReporting(1));
    expect(collectors.health().mqtt).toEqual({ received: 1 });
    // A restarted collector attaches before the old one's stop has run.
    const detachSecond = collectors.attach('mqtt', mqttReporting(2));
    detachFirst();
    expect(collectors.health().mqtt).toEqual({ received: 2 });
    detachSecond();
    expect(collectors.health()).toEqual({ mqtt: null, edgeMqtt: null, modbus: null });
  });
});
