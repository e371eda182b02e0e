/**
 * What a QoS 1 publisher learns from the broker's PUBACKs under MQTT 5. A PUBACK with reason code 16, "No
 * matching subscribers" (MQTT 5 §3.4.2.1), means the broker acknowledged the message and dropped it: Mosquitto
 * 2.0 does so while no one is subscribed, e.g. after its own restart until the collector's connections have
 * subscribed again (docs/operations.md, "A restart of the broker"). mqtt.js resolves such a publish as a success
 * and hands its callback no packet, so the code is read from the packets themselves.
 */
import type { IPublishPacket, MqttClient } from 'mqtt';

export const NO_MATCHING_SUBSCRIBERS = 16;

/** The key of a publish: its topic and payload (a publish resent after a reconnect keeps both). */
export const publishKey = (topic: string, payload: string | Buffer) => `${topic}\n${payload.toString()}`;

/**
 * Follows `client`'s QoS 1 publishes whose key `track` accepts and the reason code of each one's last PUBACK.
 * `done()` stops listening.
 */
export function watchPubacks(client: MqttClient, track: (key: string) => boolean) {
  const sent = new Map<number, string>();
  const codes = new Map<string, number>();
  const onSend = (packet: { cmd: string }) => {
    if (packet.cmd !== 'publish') return;
    const p = packet as IPublishPacket;
    const key = publishKey(p.topic, p.payload);
    if (p.qos > 0 && p.messageId !== undefined && track(key)) sent.set(p.messageId, key);
  };
  const onReceive = (packet: { cmd: string; messageId?: number; reasonCode?: number }) => {
    if (packet.cmd !== 'puback' || packet.messageId === undefined) return;
    const key = sent.get(packet.messageId);
    if (key === undefined) return;
    sent.delete(packet.messageId);
    codes.set(key, packet.reasonCode ?? 0);
  };
  client.on('packetsend', onSend);
  client.on('packetreceive', onReceive);
  return {
    /** Reason code of the last PUBACK per key (0 when the broker said nothing else). */
    codes,
    done() {
      client.off('packetsend', onSend);
      client.off('packetreceive', onReceive);
    },
  };
}
