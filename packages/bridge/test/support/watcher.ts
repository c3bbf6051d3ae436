import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { setTimeout as delay } from 'node:timers/promises';

export interface Received {
  topic: string;
  json: unknown;
  retain: boolean;
  at: number;
  correlationData?: string;
}

/**
 * A consumer of the bridge, as a venue system would be: one MQTT client subscribed to topics, keeping every
 * message with its time, and waiting for one that matches.
 */
export class Watcher {
  readonly messages: Received[] = [];

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      let json: unknown;
      try {
        json = JSON.parse(payload.toString('utf8'));
      } catch {
        json = payload.toString('utf8');
      }
      const correlation = packet.properties?.correlationData;
      this.messages.push({ topic, json, retain: packet.retain, at: Date.now(), ...(correlation ? { correlationData: Buffer.from(correlation).toString('utf8') } : {}) });
    });
  }

  static async connect(url: string, topics: string[], options: IClientOptions = {}): Promise<Watcher> {
    const client = await connectAsync(url, { protocolVersion: 5, reconnectPeriod: 200, connectTimeout: 3000, ...options });
    const watcher = new Watcher(client);
    await client.subscribeAsync(topics, { qos: 1 });
    return watcher;
  }

  /** The newest message on `topic`. */
  last(topic: string): Received | undefined {
    return this.messages.findLast((message) => message.topic === topic);
  }

  /** The first message after `since` (an index into messages) that matches; rejects after `timeoutMs`. */
  async waitFor(match: (message: Received) => boolean, timeoutMs = 5000, since = 0, what = 'a matching message'): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(since).find(match);
      if (found) return found;
      if (Date.now() > deadline) {
        const seen = this.messages.slice(-8).map((message) => `${message.topic} ${JSON.stringify(message.json)}`).join('\n  ');
        throw new Error(`No ${what} within ${timeoutMs} ms. Last messages:\n  ${seen}`);
      }
      await delay(20);
    }
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}
