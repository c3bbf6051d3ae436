import { reasonOf } from '@stagelink/core';
import { fullJitter } from '@stagelink/core/protocol';
import { connect, type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { BRIDGE_OFFLINE } from './bridge-status.js';
import { redactUrl, type BridgeLog } from './log.js';
import type { ResolvedBridgeOptions } from './options.js';
import type { Topics } from './topics.js';

/** A command as it came from the broker. */
export interface IncomingMessage {
  topic: string;
  payload: Buffer;
  retain: boolean;
  responseTopic?: string;
  correlationData?: Buffer;
  messageExpiryInterval?: number;
  /** The MQTT 5 identifiers of the subscriptions it came by (the sweep's, see BrokerLinkEvents.sweep). */
  subscriptionIds: readonly number[];
}

export interface BrokerLinkEvents {
  /** Connected (again): publish everything retained now. */
  onConnect(): void;
  onMessage(message: IncomingMessage): void;
  /** Topics besides the command topics, asked for on every connect and subscribed with their retained messages. */
  extraTopics?(): readonly string[];
  /** The broker granted the extra topics on this connection: their retained messages are on their way. */
  onExtraSubscribed?(): void;
  /**
   * The bridge's own state topics, subscribed on a connect under subscription identifier `id` to see what the broker
   * holds retained; `onSubscribed` once granted.
   */
  sweep?: { id: number; topics(): readonly string[]; onSubscribed(): void };
}

/** Even a zero jitter waits this long: a broker that refuses at once is not hammered. */
const MIN_RECONNECT_MS = 100;

/**
 * The bridge's one MQTT connection (MQTT 5): a Last Will that says the bridge is offline, the command topics
 * subscribed on every connect (retained commands never delivered), and reconnects with full-jitter back-off, so a
 * venue's bridges do not all hit a restarted broker at once.
 */
export class BrokerLink {
  readonly #client: MqttClient;
  #attempt = 0;
  #timer: NodeJS.Timeout | undefined;
  #closing = false;
  #lastError = '';
  #wasConnected = false;

  constructor(
    private readonly options: ResolvedBridgeOptions,
    private readonly topics: Topics,
    private readonly events: BrokerLinkEvents,
    private readonly log: BridgeLog,
  ) {
    const clientOptions: IClientOptions = {
      protocolVersion: 5,
      clientId: options.clientId,
      clean: true,
      keepalive: options.keepaliveSeconds,
      connectTimeout: 5000,
      // Reconnects are ours (see #closed): MQTT.js retries at a fixed period.
      reconnectPeriod: 0,
      resubscribe: false,
      queueQoSZero: false,
      will: { topic: topics.bridge, payload: Buffer.from(BRIDGE_OFFLINE), qos: 1, retain: true },
      ...(options.username === undefined ? {} : { username: options.username }),
      ...(options.password === undefined ? {} : { password: options.password }),
      ...(options.tls?.ca ? { ca: options.tls.ca } : {}),
      ...(options.tls?.cert ? { cert: options.tls.cert } : {}),
      ...(options.tls?.key ? { key: options.tls.key } : {}),
      rejectUnauthorized: true,
      // Connected by start(), once everything its events reach exists.
      manualConnect: true,
    };
    this.#client = connect(options.mqtt, clientOptions);
    this.#client.on('connect', () => this.#connected());
    this.#client.on('close', () => this.#closed());
    this.#client.on('error', (error) => this.#error(error));
    this.#client.on('message', (topic, payload, packet: IPublishPacket) => {
      const properties = packet.properties ?? {};
      this.events.onMessage({
        topic,
        payload,
        retain: packet.retain,
        ...(typeof properties.responseTopic === 'string' ? { responseTopic: properties.responseTopic } : {}),
        ...(properties.correlationData ? { correlationData: Buffer.from(properties.correlationData) } : {}),
        ...(typeof properties.messageExpiryInterval === 'number' ? { messageExpiryInterval: properties.messageExpiryInterval } : {}),
        subscriptionIds: [properties.subscriptionIdentifier ?? []].flat(),
      });
    });
  }

  /** Connects (and keeps reconnecting) from now on. */
  start(): void {
    if (this.#closing) return;
    this.log.info('broker connecting', { broker: redactUrl(this.options.mqtt), clientId: this.options.clientId });
    this.#client.connect();
  }

  get connected(): boolean {
    return this.#client.connected;
  }

  /** Retained state (QoS 1). Dropped while disconnected: everything retained is published again on connect. */
  publishRetained(topic: string, payload: string): void {
    if (!this.#client.connected) return;
    this.#client.publish(topic, payload, { qos: 1, retain: true }, (error) => {
      if (error && !this.#closing) this.log.warn('publish failed', { topic, reason: reasonOf(error) });
    });
  }

  /** A command's result (QoS 1, not retained), with the MQTT 5 correlation data when the command had some. */
  publishResult(topic: string, payload: string, correlationData?: Buffer): void {
    this.#client.publish(topic, payload, { qos: 1, retain: false, ...(correlationData ? { properties: { correlationData } } : {}) }, (error) => {
      if (error && !this.#closing) this.log.warn('result not published', { topic, reason: reasonOf(error) });
    });
  }

  /**
   * Stops receiving some of the extra topics on this connection. While disconnected there is nothing to stop: the
   * next connect subscribes what extraTopics says then.
   */
  unsubscribe(topics: readonly string[]): void {
    if (!this.#client.connected || this.#closing) return;
    this.#client.unsubscribe([...topics], (error) => {
      if (error && !this.#closing) this.log.warn('topics not unsubscribed', { topics: topics.join(','), reason: reasonOf(error) });
    });
  }

  /** Says `offline` (retained), then disconnects without firing the Last Will. Safe to call more than once. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    clearTimeout(this.#timer);
    if (this.#client.connected) {
      await new Promise<void>((resolve) => {
        this.#client.publish(this.topics.bridge, BRIDGE_OFFLINE, { qos: 1, retain: true }, () => resolve());
        setTimeout(resolve, 2000).unref();
      });
    }
    await new Promise<void>((resolve) => {
      this.#client.end(false, {}, () => resolve());
      setTimeout(() => {
        this.#client.end(true);
        resolve();
      }, 2000).unref();
    });
  }

  #connected(): void {
    // A cue is one small packet: without this, Nagle's algorithm holds it until the last packet is acknowledged.
    (this.#client.stream as { setNoDelay?: (noDelay: boolean) => void } | undefined)?.setNoDelay?.(true);
    this.#attempt = 0;
    this.#lastError = '';
    this.log.info(this.#wasConnected ? 'broker reconnected' : 'broker connected', { broker: redactUrl(this.options.mqtt) });
    this.#wasConnected = true;
    // rh 2: retained messages on command topics are never delivered, so a stale cue cannot fire on subscribe.
    this.#client.subscribe(this.topics.commands, { qos: 1, rh: 2 }, (error) => {
      if (error) this.log.error('command topics not subscribed', { topic: this.topics.commands, reason: reasonOf(error) });
    });
    const extra = this.events.extraTopics?.() ?? [];
    if (extra.length > 0) {
      this.#client.subscribe([...extra], { qos: 1 }, (error) => {
        if (error) this.log.error('topics not subscribed', { topics: extra.join(','), reason: reasonOf(error) });
        else this.events.onExtraSubscribed?.();
      });
    }
    this.#subscribeSweep();
    this.events.onConnect();
  }

  /**
   * Without no-local: a broker may apply it to the retained copies an earlier run left under the same client id. The
   * bridge's own live publications come back meanwhile, without the retain flag, and are not counted.
   */
  #subscribeSweep(): void {
    const sweep = this.events.sweep;
    const topics = sweep?.topics() ?? [];
    if (!sweep || topics.length === 0) return;
    this.#client.subscribe([...topics], { qos: 1, properties: { subscriptionIdentifier: sweep.id } }, (error) => {
      if (error) this.log.warn('earlier run topics not read', { topics: topics.join(','), reason: reasonOf(error) });
      else sweep.onSubscribed();
    });
  }

  #closed(): void {
    if (this.#closing || this.#timer) return;
    const delay = Math.max(MIN_RECONNECT_MS, fullJitter(this.#attempt++, this.options.reconnect.baseMs, this.options.reconnect.capMs));
    this.log.warn('broker disconnected', { broker: redactUrl(this.options.mqtt), retryInMs: delay, attempt: this.#attempt });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closing) this.#client.reconnect();
    }, delay);
  }

  #error(error: Error): void {
    const reason = reasonOf(error);
    if (reason === this.#lastError) return;
    this.#lastError = reason;
    this.log.error('broker error', { broker: redactUrl(this.options.mqtt), reason });
  }
}
