import { BRIDGE_ONLINE } from './bridge-status.js';
import { RetainedState } from './retained-state.js';
import { MEMBER_PARTS, payloadOf, type BridgeAdapter, type Member, type StateEvent } from './session-events.js';
import type { Topics } from './topics.js';

/** What the MQTT adapter needs of the broker connection. */
export interface RetainedLink {
  /** Retained, QoS 1; dropped while the broker is away (everything is published again on connect). */
  publishRetained(topic: string, payload: string): void;
  readonly connected: boolean;
}

/** The topic a value is published on (the README's topic table); undefined for a value with no topic. */
export function topicOf(topics: Topics, event: Pick<StateEvent, 'what' | 'part'> & { which?: string }): string | undefined {
  const which = event.which ?? '';
  switch (`${event.what} ${event.part}`) {
    case 'machine fps':
      return topics.machineFps(which);
    case 'machine health':
      return topics.machineHealth(which);
    case 'machine takeover':
      return topics.machineTakeover(which);
    case 'machine hardware':
      return topics.machineHardware(which);
    case 'transport state':
      return topics.transportState(which);
    case 'transport clock':
      return topics.transportClock(which);
    case 'layer workload':
      return topics.renderstreamLayer(which);
    case 'session health':
      return topics.sessionHealth;
    case 'director director':
      return topics.director;
    default:
      return undefined;
  }
}

/**
 * The retained MQTT topics: each value on its topic with its marks, only when it changed; everything again after a
 * (re)connect (the broker may have restarted without persistence); the topics of a machine or transport that left
 * cleared (an empty retained payload), at once or, while the broker is away, on the next connect.
 */
export class MqttState implements BridgeAdapter {
  readonly #retained = new RetainedState();
  /** Topics of what left that the broker could not be told to forget yet: cleared on the next connect. */
  readonly #clearOnConnect = new Set<string>();

  constructor(
    private readonly topics: Topics,
    private readonly link: RetainedLink,
  ) {}

  state(event: StateEvent): void {
    const topic = topicOf(this.topics, event);
    if (topic !== undefined) this.retain(topic, payloadOf(event));
  }

  /** A retained topic of the bridge's own besides the values (the summary). */
  retain(topic: string, payload: Record<string, unknown>): void {
    const json = this.#retained.set(topic, payload);
    if (json === undefined) return;
    this.#clearOnConnect.delete(topic);
    this.link.publishRetained(topic, json);
  }

  removed(member: Member): void {
    for (const topic of this.topicsOf(member)) {
      this.#retained.delete(topic);
      if (this.link.connected) this.link.publishRetained(topic, '');
      else this.#clearOnConnect.add(topic);
    }
  }

  /** Every topic of a machine or transport, those whose first value has not come yet included. */
  topicsOf(member: Member): string[] {
    return MEMBER_PARTS[member.what].map((part) => topicOf(this.topics, { ...member, part }) as string);
  }

  /** Connected (again): what left is cleared, every topic published again, and the bridge says it is online. */
  connected(): void {
    for (const topic of this.#clearOnConnect) this.link.publishRetained(topic, '');
    this.#clearOnConnect.clear();
    for (const [topic, json] of this.#retained.entries()) this.link.publishRetained(topic, json);
    this.link.publishRetained(this.topics.bridge, BRIDGE_ONLINE);
  }

  close(): void {}
}
