import { createHash } from 'node:crypto';
import { BRIDGE_OFFLINE, BRIDGE_ONLINE } from './bridge-status.js';
import type { BridgeLog } from './log.js';
import type { BridgeAdapter, Member, StateEvent } from './session-events.js';
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

/**
 * The select's state: the playmode when it is one of the options, else `None`, which Home Assistant's MQTT select
 * reads as "no option" (core's `NotSet` or `Unknown`, a playmode the director names otherwise): a value outside its
 * options would be logged as an error at every update.
 */
function playmodeTemplate(): string {
  return `{{ value_json.playmode if value_json.playmode in ${JSON.stringify([...HA_PLAYMODE_OPTIONS])} else 'None' }}`;
}

/** The sensors a machine's management controller has reported while the bridge ran: one entity each. */
export interface HaHardwareSensors {
  temperatures: readonly string[];
  fans: readonly string[];
}

/**
 * One reading of the hardware snapshot by its sensor's name; `None` (Home Assistant's "unknown") when the last
 * snapshot has none, as while the machine's SMC does not answer.
 */
function readingTemplate(list: 'temperatures' | 'fans', sensor: string): string {
  const field = list === 'temperatures' ? 'celsius' : 'rpm';
  return `{% for each in value_json.${list} if each.sensor == ${JSON.stringify(sensor)} %}{{ each.${field} }}{% else %}None{% endfor %}`;
}

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
 * bridge's command-age rule holds for Home Assistant as for any sender, and `id` names the press (the command and
 * the press time to the microsecond), so a copy the broker delivers again (QoS 1) runs once while the next press runs.
 */
function commandTemplate(transport: string, command: string, extra = ''): string {
  const id = `ha-${haSlug(transport)}-${command}-{{ (as_timestamp(now()) * 1000000) | int }}`;
  return `{"transport": ${JSON.stringify(transport)}${extra}, "id": "${id}", "sentAt": {{ (as_timestamp(now()) * 1000) | int }}}`;
}

/**
 * The discovery configs of the session and its machines. Every id comes from the MQTT prefix (see haBaseId) and the
 * session's own names (hostnames, transport names), never from anything a restart changes, so unique ids are stable.
 */
export function haDevices(
  topics: Topics,
  hostnames: readonly string[],
  transports: readonly string[],
  hardware: ReadonlyMap<string, HaHardwareSensors> = new Map(),
  layers: readonly string[] = [],
): HaDevice[] {
  const base = haBaseId(topics.prefix);
  const origin = { name: 'stagelink-bridge', url: 'https://www.npmjs.com/package/@stagelink/bridge' };
  // `<prefix>/bridge` says plain `online` / `offline`: Home Assistant's own words, read without a template.
  const availability = [{ topic: topics.bridge, payload_available: BRIDGE_ONLINE, payload_not_available: BRIDGE_OFFLINE }];
  // Ids join their parts with `-`, which no slug holds, so a machine's id never reads as a transport's. Names that
  // differ only in case or punctuation (`Node A`, `node-a`) share a slug, and so an id, within one bridge.
  // A value marked stale makes its entity unavailable, unless `staleIsAValue`: the hardware problem sensor, whose
  // snapshot is marked stale when the SMC stops answering, which is itself a problem to show, not to grey out.
  const component = (p: HaPlatform, key: string, fields: Record<string, unknown>, staleIsAValue = false): [string, HaComponent] => [
    key,
    { p, unique_id: key, default_entity_id: `${p}.${key.replace(/-/g, '_')}`, ...fields, ...(staleIsAValue ? {} : valueAvailability(availability, fields['state_topic'])) },
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
          value_template: playmodeTemplate(),
          command_topic: `${topics.commandRoot}transport/playmode`,
          command_template: commandTemplate(name, 'playmode', ', "playmode": "{{ value }}"'),
          options: [...HA_PLAYMODE_OPTIONS],
        }),
        component('binary_sensor', `${t}-playing`, { name: `${name} playing`, state_topic: state, value_template: "{{ 'ON' if value_json.playing else 'OFF' }}", device_class: 'running' }),
        ...HA_BUTTON_COMMANDS.map((command) =>
          component('button', `${t}-${command}`, { name: `${name} ${command}`, command_topic: `${topics.commandRoot}transport/${command}`, command_template: commandTemplate(name, command) }),
        ),
        // The playhead and the time left change at every clock message (up to --fps-hz a second): Home Assistant
        // would write a row each time. Off until a user turns them on (see the README's recorder exclude).
        component('sensor', `${t}-time`, {
          name: `${name} time`,
          state_topic: clock,
          value_template: '{{ value_json.time | round(1) }}',
          unit_of_measurement: 's',
          device_class: 'duration',
          enabled_by_default: false,
        }),
        component('sensor', `${t}-track`, { name: `${name} track`, state_topic: clock, value_template: '{{ value_json.track.name }}' }),
        component('sensor', `${t}-section`, { name: `${name} section`, state_topic: clock, value_template: '{{ value_json.section.index if value_json.section is defined else -1 }}' }),
        component('sensor', `${t}-section_remaining`, {
          name: `${name} section remaining`,
          state_topic: clock,
          value_template: '{{ (value_json.section.remaining if value_json.section is defined else value_json.trackRemaining) | round(1) }}',
          unit_of_measurement: 's',
          device_class: 'duration',
          enabled_by_default: false,
        }),
        component('sensor', `${t}-cue_next`, {
          name: `${name} next cue`,
          state_topic: clock,
          value_template: "{{ value_json.cue.next.value if (value_json.cue is defined and value_json.cue.next is defined) else '' }}",
        }),
      ];
    }),
    // A RenderStream layer's workload is a problem while it is not running (crashed, stopped, starting).
    ...layers.map((name) =>
      component('binary_sensor', `${base}-layer-${haSlug(name)}-workload`, {
        name: `${name} workload`,
        state_topic: topics.renderstreamLayer(name),
        value_template: "{{ 'OFF' if value_json.state == 'running' else 'ON' }}",
        device_class: 'problem',
      }),
    ),
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
      ...hardwareComponents(hardware.get(hostname)),
    ]);
    function hardwareComponents(sensors: HaHardwareSensors | undefined): [string, HaComponent][] {
      if (!sensors) return [];
      const state_topic = topics.machineHardware(hostname);
      return [
        component(
          'binary_sensor',
          `${id}-hardware`,
          {
            name: 'Hardware',
            state_topic,
            value_template: "{{ 'OFF' if value_json.severity == 'ok' else 'ON' }}",
            device_class: 'problem',
            json_attributes_topic: state_topic,
            json_attributes_template: '{{ {"severity": value_json.severity, "status": value_json.status, "reasons": value_json.reasons} | tojson }}',
          },
          true,
        ),
        ...sensors.temperatures.map((sensor) =>
          component('sensor', `${id}-temperature-${haSlug(sensor)}`, {
            name: sensor,
            state_topic,
            value_template: readingTemplate('temperatures', sensor),
            device_class: 'temperature',
            unit_of_measurement: '°C',
            state_class: 'measurement',
          }),
        ),
        ...sensors.fans.map((sensor) =>
          component('sensor', `${id}-fan-${haSlug(sensor)}`, { name: sensor, state_topic, value_template: readingTemplate('fans', sensor), unit_of_measurement: 'RPM', state_class: 'measurement', icon: 'mdi:fan' }),
        ),
      ];
    }
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
export class HaDiscovery implements BridgeAdapter {
  readonly #hostnames = new Set<string>();
  readonly #transports = new Set<string>();
  readonly #layers = new Set<string>();
  /** Per machine, the hardware sensors its snapshots have named: an entity each, kept while the machine is there. */
  readonly #hardware = new Map<string, { temperatures: Set<string>; fans: Set<string> }>();
  /** Configs of this bridge's ids seen retained on the broker: candidates for removal. */
  readonly #seen = new Set<string>();
  /**
   * Device mode: the components each of this bridge's device configs held retained on the broker (an earlier run's,
   * or this run's own, heard back): one this run no longer has is removed once the session has been read.
   */
  readonly #heard = new Map<string, Map<string, string>>();
  readonly #base: string;
  /** What Home Assistant was last told on each config topic: kept across reconnects, as Home Assistant keeps it. */
  readonly #published = new Map<string, string>();
  /** Publish every config again at the next flush, even one unchanged: the broker or Home Assistant lost them. */
  #republish = false;
  #sessionRead = false;
  /** The transports have been read once: until then the session's device would list none of them. */
  #transportsRead = false;
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

  /** A machine, transport or RenderStream layer came: its device or entities are published. */
  added({ what, which }: Member): void {
    if (what === 'machine') this.machine(which);
    else if (what === 'transport') this.transport(which);
    else if (!this.#layers.has(which)) {
      this.#layers.add(which);
      this.#soon();
    }
  }

  /**
   * Values are read by Home Assistant from their topics; only a machine's hardware says which entities it has (its
   * sensors, named by its SMC). A sensor a snapshot lacks (an SMC that does not answer) keeps its entity.
   */
  state(event: StateEvent): void {
    if (event.what !== 'machine' || event.part !== 'hardware') return;
    const known = this.#hardware.get(event.which) ?? { temperatures: new Set<string>(), fans: new Set<string>() };
    const before = this.#hardware.has(event.which) ? known.temperatures.size + known.fans.size : -1;
    this.#hardware.set(event.which, known);
    for (const { sensor } of event.value.temperatures) known.temperatures.add(sensor);
    for (const { sensor } of event.value.fans) known.fans.add(sensor);
    const grew = known.temperatures.size + known.fans.size !== before;
    if (grew) this.#soon();
  }

  /** A machine that left the session, a transport or layer no longer there: removed from Home Assistant (see #removeGone). */
  removed({ what, which }: Member): void {
    if (what === 'machine') this.#hardware.delete(which);
    if ((what === 'machine' ? this.#hostnames : what === 'transport' ? this.#transports : this.#layers).delete(which)) this.#soon();
  }

  /**
   * The transports were read (successfully) for the first time: the session's device, which lists them, is published
   * from now on. Before, a config without them would replace the one on the broker (an earlier run's) for nothing.
   */
  transportsRead(): void {
    if (this.#transportsRead) return;
    this.#transportsRead = true;
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
    this.#republish = true;
    this.#soon();
  }

  /** A message on a discovery subscription. */
  message(topic: string, payload: Buffer): void {
    if (topic === this.#statusTopic) {
      if (payload.toString('utf8').trim() === 'online') {
        this.log.info('home assistant online: discovery published again');
        this.#republish = true;
        this.#soon();
      }
      return;
    }
    if (payload.length === 0 || !this.#ours(topic)) return;
    this.#seen.add(topic);
    if (this.options.mode === 'device') this.#hear(topic, payload);
    this.#soon();
  }

  /** The components a retained device config lists (removal stubs, `{"p"}` alone, are none). */
  #hear(topic: string, payload: Buffer): void {
    let cmps: unknown;
    try {
      cmps = (JSON.parse(payload.toString('utf8')) as { cmps?: unknown }).cmps;
    } catch {
      return;
    }
    if (typeof cmps !== 'object' || cmps === null) return;
    const heard = this.#heard.get(topic) ?? new Map<string, string>();
    for (const [key, component] of Object.entries(cmps as Record<string, { p?: unknown }>)) {
      if (typeof component?.p === 'string' && Object.keys(component).length > 1) heard.set(key, component.p);
    }
    this.#heard.set(topic, heard);
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
    const hardware = new Map([...this.#hardware].map(([hostname, { temperatures, fans }]) => [hostname, { temperatures: [...temperatures], fans: [...fans] }]));
    const devices = haDevices(this.topics, [...this.#hostnames].sort(), [...this.#transports].sort(), hardware, [...this.#layers].sort()).filter((device) => this.#transportsRead || device.id !== this.#base);
    const messages = haConfigMessages(devices, this.options.discoveryPrefix, this.options.mode);
    const current = new Set(messages.map(({ topic }) => topic));
    const payloads = new Map(messages.map(({ topic, payload }) => [topic, payload]));
    this.#removeGone(payloads);
    if (this.#sessionRead) this.#removeLeftoverComponents(payloads);
    for (const { topic, payload } of messages) {
      if (!this.#republish && this.#published.get(topic) === payload) continue;
      this.link.publish(topic, payload);
      this.#published.set(topic, payload);
    }
    this.#republish = false;
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

  /**
   * Takes out of Home Assistant what this run published and no longer has (a machine that left, a transport gone).
   * In device mode Home Assistant acts only on the components a config lists: one left out is kept, so each that went
   * is sent as `{"p": <platform>}` (a removal), then the config without them follows (see #flush); a device with
   * nothing left is then cleared. In entity mode each entity's config is cleared.
   */
  #removeGone(current: ReadonlyMap<string, string>): void {
    for (const [topic, previous] of this.#published) {
      const now = current.get(topic);
      if (this.options.mode === 'entity') {
        if (now !== undefined) continue;
        this.link.publish(topic, '');
        this.#published.delete(topic);
        continue;
      }
      const before = JSON.parse(previous) as HaDevice['config'];
      const after = now === undefined ? undefined : (JSON.parse(now) as HaDevice['config']);
      const gone = Object.entries(before.cmps).filter(([key]) => !after || !(key in after.cmps));
      if (gone.length === 0) continue;
      const stubs = Object.fromEntries(gone.map(([key, { p }]) => [key, { p }]));
      this.log.info('home assistant entities removed', { topic, count: gone.length });
      this.link.publish(topic, JSON.stringify({ ...(after ?? before), cmps: { ...after?.cmps, ...stubs } }));
      if (after) continue;
      this.link.publish(topic, '');
      this.#published.delete(topic);
    }
  }

  /**
   * Device mode: a component the broker's copy of a device config lists and this run's config does not (a transport
   * renamed between two runs of the bridge) is sent as a removal stub, then the config follows (see #flush). What
   * this run published itself is #removeGone's.
   */
  #removeLeftoverComponents(current: ReadonlyMap<string, string>): void {
    for (const [topic, heard] of this.#heard) {
      const now = current.get(topic);
      if (now === undefined) continue;
      const config = JSON.parse(now) as HaDevice['config'];
      const previous = this.#published.get(topic);
      const ours = previous === undefined ? {} : (JSON.parse(previous) as HaDevice['config']).cmps;
      const gone = [...heard].filter(([key]) => !(key in config.cmps) && !(key in ours));
      if (gone.length === 0) continue;
      this.log.info('home assistant entities removed', { topic, count: gone.length });
      this.link.publish(topic, JSON.stringify({ ...config, cmps: { ...config.cmps, ...Object.fromEntries(gone.map(([key, p]) => [key, { p }])) } }));
      this.#published.delete(topic);
    }
    this.#heard.clear();
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
