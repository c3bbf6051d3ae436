import { createHash } from 'node:crypto';
import type { BridgeLog } from './log.js';
import type { Topics } from './topics.js';

/**
 * `device`: one config per device under `<prefix>/device/<id>/config` with all its entities (`cmps`), as Home
 * Assistant reads it since 2024.11. `entity`: one config per entity under
 * `<prefix>/<platform>/<node_id>/<object_id>/config`, for systems that read only that form (openHAB).
 */
export type HaDiscoveryMode = 'device' | 'entity';

export interface HaDiscoveryOptions {
  /** The discovery prefix (Home Assistant's default `homeassistant`). */
  discoveryPrefix: string;
  mode: HaDiscoveryMode;
}

/** One entity of a device, keyed in `cmps` by its object id. */
export type HaComponent = Record<string, unknown> & { p: HaPlatform; unique_id: string; default_entity_id: string };
export type HaPlatform = 'sensor' | 'binary_sensor' | 'button' | 'select';

export interface HaDevice {
  id: string;
  config: { dev: Record<string, unknown>; o: Record<string, unknown>; availability: unknown[]; qos: number; cmps: Record<string, HaComponent> };
}

/** Transport commands offered as buttons: those an operator presses without a value. */
export const HA_BUTTON_COMMANDS = ['play', 'stop', 'returntostart', 'gotonexttrack', 'gotoprevtrack', 'gotonextsection', 'gotoprevsection'] as const;
/** What the playmode select offers; each runs the command of that playmode (`cmd/transport/playmode`). */
export const HA_PLAYMODE_OPTIONS = ['Play', 'PlaySection', 'Loop', 'Stop'] as const;

/** Lower-case letters, digits and `_`: what Home Assistant's ids and entity ids are made of. */
export function haSlug(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return slug === '' ? '_' : slug;
}

/**
 * The start of every id of one bridge: `stagelink_`, its prefix as a slug, and the first 6 hex digits of the SHA-1 of
 * the exact prefix. The slug alone is lossy (`venue/Hall A` and `venue/hall_a` give the same one): the hash keeps two
 * bridges' ids apart, so neither's cleanup removes the other's devices, and is the same on every run.
 */
export function haBaseId(prefix: string): string {
  return `stagelink_${haSlug(prefix)}_${createHash('sha1').update(prefix, 'utf8').digest('hex').slice(0, 6)}`;
}

/**
 * A command's payload, made by Home Assistant when the button is pressed: `sentAt` is the press time, so the
 * bridge's command-age rule holds for Home Assistant as for any sender.
 */
function commandTemplate(transport: string, extra = ''): string {
  return `{"transport": ${JSON.stringify(transport)}${extra}, "sentAt": {{ (as_timestamp(now()) * 1000) | int }}}`;
}

/**
 * The discovery configs of the session and its machines. Every id comes from the MQTT prefix (see haBaseId) and the
 * session's own names (hostnames, transport names), never from anything a restart changes, so unique ids are stable.
 */
export function haDevices(topics: Topics, hostnames: readonly string[], transports: readonly string[]): HaDevice[] {
  const base = haBaseId(topics.prefix);
  const origin = { name: 'stagelink-bridge', url: 'https://www.npmjs.com/package/@stagelink/bridge' };
  const availability = [{ topic: topics.bridge, value_template: '{{ value_json }}', payload_available: 'online', payload_not_available: 'offline' }];
  // Ids join their parts with `-`, which no slug holds, so a machine's id never reads as a transport's. Names that
  // differ only in case or punctuation (`Node A`, `node-a`) share a slug, and so an id, within one bridge.
  const component = (p: HaPlatform, key: string, fields: Record<string, unknown>): [string, HaComponent] => [
    key,
    { p, unique_id: key, default_entity_id: `${p}.${key.replace(/-/g, '_')}`, ...fields, ...valueAvailability(availability, fields['state_topic']) },
  ];

  const session: Record<string, HaComponent> = Object.fromEntries([
    component('sensor', `${base}-session-health`, { name: 'Session health', state_topic: topics.sessionHealth, value_template: '{{ value_json.severity }}', icon: 'mdi:heart-pulse' }),
    component('sensor', `${base}-director`, { name: 'Director', state_topic: topics.director, value_template: '{{ value_json.hostname }}', icon: 'mdi:crown' }),
    ...transports.flatMap((name) => {
      const t = `${base}-transport-${haSlug(name)}`;
      const state = topics.transportState(name);
      const clock = topics.transportClock(name);
      return [
        component('select', `${t}-playmode`, {
          name: `${name} playmode`,
          state_topic: state,
          value_template: '{{ value_json.playmode }}',
          command_topic: `${topics.commandRoot}transport/playmode`,
          command_template: commandTemplate(name, ', "playmode": "{{ value }}"'),
          options: [...HA_PLAYMODE_OPTIONS],
        }),
        component('binary_sensor', `${t}-playing`, { name: `${name} playing`, state_topic: state, value_template: "{{ 'ON' if value_json.playing else 'OFF' }}", device_class: 'running' }),
        ...HA_BUTTON_COMMANDS.map((command) =>
          component('button', `${t}-${command}`, { name: `${name} ${command}`, command_topic: `${topics.commandRoot}transport/${command}`, command_template: commandTemplate(name) }),
        ),
        component('sensor', `${t}-time`, { name: `${name} time`, state_topic: clock, value_template: '{{ value_json.time | round(1) }}', unit_of_measurement: 's', device_class: 'duration' }),
        component('sensor', `${t}-track`, { name: `${name} track`, state_topic: clock, value_template: '{{ value_json.track.name }}' }),
        component('sensor', `${t}-section`, { name: `${name} section`, state_topic: clock, value_template: '{{ value_json.section.index if value_json.section is defined else -1 }}' }),
        component('sensor', `${t}-section_remaining`, {
          name: `${name} section remaining`,
          state_topic: clock,
          value_template: '{{ (value_json.section.remaining if value_json.section is defined else value_json.trackRemaining) | round(1) }}',
          unit_of_measurement: 's',
          device_class: 'duration',
        }),
        component('sensor', `${t}-cue_next`, {
          name: `${name} next cue`,
          state_topic: clock,
          value_template: "{{ value_json.cue.next.value if (value_json.cue is defined and value_json.cue.next is defined) else '' }}",
        }),
      ];
    }),
  ]);
  const devices: HaDevice[] = [{ id: base, config: { dev: { ids: [base], name: `stagelink ${topics.prefix}`, mf: 'stagelink', mdl: 'media-server session' }, o: origin, availability, qos: 1, cmps: session } }];
  for (const hostname of hostnames) {
    const id = `${base}-machine-${haSlug(hostname)}`;
    const cmps = Object.fromEntries([
      component('sensor', `${id}-fps`, {
        name: 'FPS',
        state_topic: topics.machineFps(hostname),
        value_template: '{{ value_json.value }}',
        unit_of_measurement: 'fps',
        state_class: 'measurement',
        json_attributes_topic: topics.machineFps(hostname),
      }),
      component('sensor', `${id}-health`, { name: 'Health', state_topic: topics.machineHealth(hostname), value_template: '{{ value_json.severity }}', icon: 'mdi:heart-pulse' }),
      component('binary_sensor', `${id}-takeover`, { name: 'Takeover', state_topic: topics.machineTakeover(hostname), value_template: "{{ 'ON' if value_json.value else 'OFF' }}", device_class: 'problem' }),
    ]);
    devices.push({ id, config: { dev: { ids: [id], name: hostname, mf: 'stagelink', mdl: 'media server', via_device: base }, o: origin, availability, qos: 1, cmps } });
  }
  return devices;
}

/**
 * A value entity is available only while the bridge is online and its value is not marked stale: Home Assistant
 * shows the last value of an unavailable entity greyed out as "unavailable", never as live.
 */
function valueAvailability(bridge: unknown[], stateTopic: unknown): Record<string, unknown> {
  if (typeof stateTopic !== 'string') return {};
  return { availability_mode: 'all', availability: [...bridge, { topic: stateTopic, value_template: "{{ 'offline' if value_json.stale else 'online' }}" }] };
}

/** Each device's config as the mode publishes it: topic and retained payload. */
export function haConfigMessages(devices: readonly HaDevice[], discoveryPrefix: string, mode: HaDiscoveryMode): { topic: string; payload: string }[] {
  if (mode === 'device') return devices.map((device) => ({ topic: `${discoveryPrefix}/device/${device.id}/config`, payload: JSON.stringify(device.config) }));
  return devices.flatMap(({ id, config }) =>
    Object.entries(config.cmps).map(([key, { p, ...entity }]) => ({
      topic: `${discoveryPrefix}/${p}/${id}/${key}/config`,
      payload: JSON.stringify({ availability: config.availability, ...entity, device: config.dev, origin: config.o, qos: config.qos }),
    })),
  );
}

/** What discovery needs of the bridge's broker connection. */
export interface HaLink {
  /** Retained, QoS 1; dropped while the broker is away. */
  publish(topic: string, payload: string): void;
  /** Stops receiving topics on the current connection. */
  unsubscribe(topics: readonly string[]): void;
  isConnected(): boolean;
}

/**
 * Home Assistant discovery for one bridge: every device's config published (retained) on connect, when the
 * session shows a new machine or transport, and again when Home Assistant says `online` on `<prefix>/status`
 * (it restarted and may have lost them). Configs this bridge published on an earlier run that name a device or an
 * entity it no longer has are removed with an empty retained payload, once the session has been read. The configs of
 * earlier runs are found by a wildcard subscription that brings every device's config on the broker, Zigbee2MQTT's
 * and all: it is dropped once the leftovers have been removed, and not taken again on a reconnect.
 */
export class HaDiscovery {
  readonly #hostnames = new Set<string>();
  readonly #transports = new Set<string>();
  /** Configs of this bridge's ids seen retained on the broker: candidates for removal. */
  readonly #seen = new Set<string>();
  readonly #base: string;
  #published = new Map<string, string>();
  #sessionRead = false;
  /** The broker granted the config wildcard on this connection: what it holds retained has been or is being sent. */
  #configsSubscribed = false;
  /** Leftovers removed once: the config wildcard is no longer needed. */
  #cleanedUp = false;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly topics: Topics,
    private readonly options: HaDiscoveryOptions,
    private readonly link: HaLink,
    private readonly log: BridgeLog,
  ) {
    this.#base = haBaseId(topics.prefix);
  }

  /** What the bridge subscribes to for discovery: Home Assistant's status, and until the first cleanup the configs. */
  get subscriptions(): string[] {
    return this.#cleanedUp ? [this.#statusTopic] : [this.#statusTopic, this.#configTopics];
  }

  /**
   * The broker granted `subscriptions` on this connection. The retained configs follow the grant: the next flush,
   * which may remove leftovers and drop the wildcard, is put off a whole delay so they have come by then.
   */
  subscribed(): void {
    this.#configsSubscribed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#soon();
  }

  machine(hostname: string): void {
    if (this.#hostnames.has(hostname)) return;
    this.#hostnames.add(hostname);
    this.#soon();
  }

  transport(name: string): void {
    if (this.#transports.has(name)) return;
    this.#transports.add(name);
    this.#soon();
  }

  /** The session has been read once: what is not in it now is gone, and its leftover configs can be removed. */
  sessionRead(): void {
    if (this.#sessionRead) return;
    this.#sessionRead = true;
    this.#soon();
  }

  /** Connected (again): everything is published again. */
  connected(): void {
    this.#configsSubscribed = false;
    this.#published.clear();
    this.#soon();
  }

  /** A message on a discovery subscription. */
  message(topic: string, payload: Buffer): void {
    if (topic === this.#statusTopic) {
      if (payload.toString('utf8').trim() === 'online') {
        this.log.info('home assistant online: discovery published again');
        this.#published.clear();
        this.#soon();
      }
      return;
    }
    if (payload.length === 0 || !this.#ours(topic)) return;
    this.#seen.add(topic);
    this.#soon();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  /** Many machines and transports arrive in one poll: one publish for all of them. */
  #soon(): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, 200);
  }

  #flush(): void {
    if (this.#closed) return;
    const devices = haDevices(this.topics, [...this.#hostnames].sort(), [...this.#transports].sort());
    const messages = haConfigMessages(devices, this.options.discoveryPrefix, this.options.mode);
    const current = new Set(messages.map(({ topic }) => topic));
    for (const { topic, payload } of messages) {
      if (this.#published.get(topic) === payload) continue;
      this.link.publish(topic, payload);
      this.#published.set(topic, payload);
    }
    if (!this.#sessionRead) return;
    for (const topic of this.#seen) {
      if (current.has(topic)) continue;
      this.log.info('home assistant config removed', { topic });
      this.link.publish(topic, '');
    }
    this.#seen.clear();
    // Removals made while the broker is away are lost, and leftovers arrive only once the wildcard is granted: until
    // both hold, the wildcard stays (and is taken again on a reconnect). Configs it still brings before the broker
    // has handled the unsubscribe are removed by the next flush.
    if (this.#cleanedUp || !this.#configsSubscribed || !this.link.isConnected()) return;
    this.#cleanedUp = true;
    this.link.unsubscribe([this.#configTopics]);
    this.log.info('home assistant leftovers removed: other configs no longer read', { topic: this.#configTopics });
  }

  get #statusTopic(): string {
    return `${this.options.discoveryPrefix}/status`;
  }

  get #configTopics(): string {
    const { discoveryPrefix, mode } = this.options;
    return mode === 'device' ? `${discoveryPrefix}/device/+/config` : `${discoveryPrefix}/+/+/+/config`;
  }

  /** A config topic of one of this bridge's devices (its ids all start with its own base id). */
  #ours(topic: string): boolean {
    const parts = topic.split('/');
    const id = this.options.mode === 'device' ? parts.at(-2) : parts.at(-3);
    return id !== undefined && (id === this.#base || id.startsWith(`${this.#base}-`));
  }
}
