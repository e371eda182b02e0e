/**
 * A data logger as the tests play it: it empties its buffer as QoS 1 messages over MQTT 5 without waiting
 * for the PUBACKs, and keeps every message the broker answered with reason code 16, "No matching
 * subscribers" (MQTT 5 §3.4.2.1), to send it again. Mosquitto 2.0 drops such a message after acknowledging
 * it, and after its own restart it has no subscriber on the collector's shared filter until the collector's
 * connections subscribe again (docs/operations.md, "A restart of the broker"). mqtt.js resolves such a publish
 * as a success, so the reason code is read from the PUBACK packets themselves.
 */
import type { MqttClient } from 'mqtt';
import { NO_MATCHING_SUBSCRIBERS, publishKey, watchPubacks } from '@solar/simulator';

export { NO_MATCHING_SUBSCRIBERS };

export interface BurstResult {
  /** Messages whose last PUBACK had reason code 0: delivered to a subscription (or its session's queue). */
  delivered: number;
  /** Indexes of the messages whose last PUBACK said "No matching subscribers": the broker dropped them. */
  noSubscribers: number[];
}

/** A message of the logger's buffer: its index and its payload (each payload unique). */
export type LoggerMessage = readonly [index: number, payload: string];

/**
 * Publishes `messages` at QoS 1 at once; `during` runs while they are under way (it gets the count of
 * PUBACKs so far). Resolves when every one is acknowledged.
 */
export async function publishBurst(
  client: MqttClient,
  topic: string,
  messages: readonly LoggerMessage[],
  during: (acked: () => number) => Promise<void> = () => Promise.resolve(),
): Promise<BurstResult> {
  const keys = new Map(messages.map(([i, payload]) => [publishKey(topic, payload), i]));
  const watch = watchPubacks(client, (key) => keys.has(key));
  let acked = 0;
  try {
    const all = Promise.all(
      messages.map(([, payload]) => client.publishAsync(topic, payload, { qos: 1 }).then(() => void acked++)),
    );
    await during(() => acked);
    await all;
  } finally {
    watch.done();
  }
  const noSubscribers = messages
    .filter(([, payload]) => watch.codes.get(publishKey(topic, payload)) === NO_MATCHING_SUBSCRIBERS)
    .map(([i]) => i);
  return { delivered: messages.length - noSubscribers.length, noSubscribers };
}

/**
 * What a logger with store-and-forward does with the messages the broker did not deliver: sends them again,
 * a round every `waitMs`, until the broker answers 0 for each, or `rounds` are over. Resolves with the
 * indexes still undelivered (none when a subscriber came back in time) and the rounds it took.
 */
export async function resendUndelivered(
  client: MqttClient,
  topic: string,
  byIndex: (i: number) => LoggerMessage,
  undelivered: number[],
  { rounds = 20, waitMs = 500 } = {},
): Promise<{ left: number[]; rounds: number }> {
  let left = undelivered;
  let round = 0;
  while (left.length && round < rounds) {
    round++;
    await new Promise((r) => setTimeout(r, waitMs));
    left = (await publishBurst(client, topic, left.map(byIndex))).noSubscribers;
  }
  return { left, rounds: round };
}
