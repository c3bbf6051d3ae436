import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCommand } from '../src/commands.js';
import { HaDiscovery, haBaseId, haConfigMessages, haDevices, haSlug, type HaComponent, type HaLink } from '../src/ha-discovery.js';
import { silentLog, type Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { Topics } from '../src/topics.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

/**
 * The keys Home Assistant's MQTT integration requires, as its documentation lists them: for device-based
 * discovery `dev` (with `identifiers`/`ids` or `connections`), `o` (with `name`) and `cmps`, each component with
 * `p` (its platform) and a `unique_id`; and each platform's own required keys.
 */
const REQUIRED_BY_PLATFORM: Record<string, string[]> = {
  sensor: ['state_topic'],
  binary_sensor: ['state_topic'],
  button: ['command_topic'],
  select: ['command_topic', 'options'],
};

interface DeviceConfig {
  dev: { ids?: string[]; identifiers?: string[]; name?: string; via_device?: string };
  o: { name?: string };
  cmps: Record<string, HaComponent>;
  availability: { topic: string; value_template?: string }[];
}

/** Every problem Home Assistant's schema would find in a device-based discovery payload. */
function schemaProblems(config: DeviceConfig): string[] {
  const problems: string[] = [];
  if (!config.dev || !(config.dev.ids?.length || config.dev.identifiers?.length)) problems.push('dev has no ids');
  if (typeof config.o?.name !== 'string') problems.push('o has no name');
  if (!config.cmps || Object.keys(config.cmps).length === 0) problems.push('no cmps');
  for (const [key, component] of Object.entries(config.cmps ?? {})) {
    const required = REQUIRED_BY_PLATFORM[component.p];
    if (!required) problems.push(`${key}: platform ${String(component.p)} is not one the bridge uses`);
    for (const field of required ?? []) if (component[field] === undefined) problems.push(`${key}: no ${field}`);
    if (typeof component.unique_id !== 'string' || component.unique_id === '') problems.push(`${key}: no unique_id`);
    if (!/^[a-z_]+\.[a-z0-9_]+$/.test(component.default_entity_id) || !component.default_entity_id.startsWith(`${component.p}.`)) problems.push(`${key}: default_entity_id ${component.default_entity_id}`);
    if ('object_id' in component) problems.push(`${key}: deprecated object_id`);
    if (!/^[A-Za-z0-9_-]+$/.test(key)) problems.push(`${key}: not an object id`);
  }
  return problems;
}

describe('Home Assistant discovery payloads', () => {
  const topics = new Topics('venue/hall a');
  const devices = haDevices(topics, ['node-a', 'node-b'], ['main', 'side screens']);

  it('describes the session and each machine with the keys Home Assistant requires for every platform', () => {
    expect(devices.map((device) => device.id)).toEqual(['stagelink_venue_hall_a_6f89f0', 'stagelink_venue_hall_a_6f89f0-machine-node_a', 'stagelink_venue_hall_a_6f89f0-machine-node_b']);
    for (const { config } of devices) expect(schemaProblems(config as DeviceConfig)).toEqual([]);
    const session = devices[0]?.config.cmps ?? {};
    const platforms = Object.values(session).map((component) => `${component.p} ${String(component.name)}`);
    expect(platforms).toEqual(expect.arrayContaining(['select main playmode', 'binary_sensor main playing', 'button main play', 'button main stop', 'sensor main time', 'sensor main section', 'sensor main next cue', 'sensor side screens section remaining']));
    const machine = devices[1]?.config.cmps ?? {};
    expect(Object.values(machine).map((component) => component.p).sort()).toEqual(['binary_sensor', 'sensor', 'sensor']);
    expect(devices[1]?.config.dev.via_device).toBe('stagelink_venue_hall_a_6f89f0');
    expect(devices[0]?.config.availability).toEqual([{ topic: 'venue/hall a/bridge', payload_available: 'online', payload_not_available: 'offline' }]);
  });

  it('makes every value entity unavailable while its value is marked stale, not only while the bridge is offline', () => {
    const fps = devices[1]?.config.cmps['stagelink_venue_hall_a_6f89f0-machine-node_a-fps'];
    expect(fps).toMatchObject({
      availability_mode: 'all',
      availability: [
        { topic: 'venue/hall a/bridge' },
        { topic: fps?.['state_topic'], value_template: "{{ 'offline' if value_json.stale else 'online' }}" },
      ],
    });
    const play = devices[0]?.config.cmps['stagelink_venue_hall_a_6f89f0-transport-main-play'];
    expect(play).not.toHaveProperty('availability');
    const entity = haConfigMessages(devices, 'openhab', 'entity').map(({ payload }) => JSON.parse(payload) as { unique_id: string; availability: unknown[] });
    expect(entity.find((config) => config.unique_id.endsWith('node_a-fps'))?.availability).toHaveLength(2);
    expect(entity.find((config) => config.unique_id.endsWith('main-play'))?.availability).toHaveLength(1);
  });

  it('gives every entity its own unique id, the same for the same session', () => {
    const ids = devices.flatMap((device) => Object.values(device.config.cmps).map((component) => component.unique_id));
    expect(new Set(ids).size).toBe(ids.length);
    const again = haDevices(new Topics('venue/hall a'), ['node-b', 'node-a'], ['side screens', 'main']);
    expect(new Set(again.flatMap((device) => Object.values(device.config.cmps).map((component) => component.unique_id)))).toEqual(new Set(ids));
    // A bridge whose prefix starts like this one's never shares an id with it.
    const other = haDevices(new Topics('venue/hall a/b'), ['node-a'], ['main']);
    const otherIds = other.flatMap((device) => [device.id, ...Object.keys(device.config.cmps)]);
    expect(otherIds.filter((id) => ids.includes(id) || devices.some((device) => device.id === id))).toEqual([]);
    // Nor one whose prefix makes the same slug.
    const alike = [haDevices(new Topics('venue/Hall A'), ['node-a'], ['main']), haDevices(new Topics('venue/hall_a'), ['node-a'], ['main'])];
    expect(alike.map((bridge) => bridge[0]?.id)).toEqual(['stagelink_venue_hall_a_316ff1', 'stagelink_venue_hall_a_fcfc3d']);
    expect(alike.flatMap((bridge) => bridge.map((device) => device.id)).filter((id) => devices.some((device) => device.id === id))).toEqual([]);
  });

  it('stamps a button press with its time and an id of its own, so the age rule holds and a redelivered copy runs once', () => {
    const play = devices[0]?.config.cmps['stagelink_venue_hall_a_6f89f0-transport-main-play'];
    expect(play).toMatchObject({ p: 'button', command_topic: 'venue/hall a/cmd/transport/play' });
    expect(play?.command_template).toBe('{"transport": "main", "id": "ha-main-play-{{ (as_timestamp(now()) * 1000000) | int }}", "sentAt": {{ (as_timestamp(now()) * 1000) | int }}}');
    const select = devices[0]?.config.cmps['stagelink_venue_hall_a_6f89f0-transport-side_screens-playmode'];
    expect(select?.command_template).toBe('{"transport": "side screens", "playmode": "{{ value }}", "id": "ha-side_screens-playmode-{{ (as_timestamp(now()) * 1000000) | int }}", "sentAt": {{ (as_timestamp(now()) * 1000) | int }}}');
  });

  it('publishes one config per entity in entity mode, each with its device and availability', () => {
    const messages = haConfigMessages(devices, 'openhab', 'entity');
    expect(messages.length).toBe(devices.reduce((sum, device) => sum + Object.keys(device.config.cmps).length, 0));
    for (const { topic, payload } of messages) {
      expect(topic).toMatch(/^openhab\/(sensor|binary_sensor|button|select)\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/config$/);
      const entity = JSON.parse(payload) as Record<string, unknown>;
      expect(entity).toHaveProperty('device');
      expect(entity).toHaveProperty('origin');
      expect(entity).toHaveProperty('availability');
      expect(entity).not.toHaveProperty('p');
    }
  });

  it("leaves the clock's fast sensors (time, section remaining) off until a user turns them on", () => {
    const session = devices[0]?.config.cmps ?? {};
    const fast = Object.entries(session).filter(([, component]) => component['enabled_by_default'] === false).map(([key]) => key.replace('stagelink_venue_hall_a_6f89f0-transport-', ''));
    expect(fast.sort()).toEqual(['main-section_remaining', 'main-time', 'side_screens-section_remaining', 'side_screens-time']);
  });

  it('gives the playmode select no value outside its options: a playmode it does not offer reads as none', () => {
    const select = devices[0]?.config.cmps['stagelink_venue_hall_a_6f89f0-transport-main-playmode'];
    const template = String(select?.value_template);
    // The template's one form, evaluated as Home Assistant's Jinja would.
    const form = /^\{\{ value_json\.playmode if value_json\.playmode in (\[.*\]) else 'None' \}\}$/.exec(template);
    expect(form, template).not.toBeNull();
    const allowed = JSON.parse(form?.[1] ?? '[]') as string[];
    const render = (playmode: string) => (allowed.includes(playmode) ? playmode : 'None');
    const options = select?.['options'] as string[];
    for (const playmode of ['Play', 'PlaySection', 'Loop', 'Stop', 'NotSet', 'Unknown', 'play', '']) {
      const shown = render(playmode);
      expect(shown === 'None' || options.includes(shown), `${playmode} -> ${shown}`).toBe(true);
    }
    expect(options.map(render)).toEqual(options);
  });

  it('runs the command of the playmode a select sends, and refuses one that runs none', () => {
    expect(parseCommand('transport/playmode', { transport: 'main', playmode: 'Loop' })).toEqual({ kind: 'transport', command: 'playloopsection', transports: [{ name: 'main' }], fields: {} });
    expect(parseCommand('transport/playmode', { transport: 'main', playmode: 'stop' })).toMatchObject({ command: 'stop' });
    expect(() => parseCommand('transport/playmode', { transport: 'main', playmode: 'NotSet' })).toThrow(/runs no command/);
    expect(() => parseCommand('transport/playmode', { transport: 'main', playmode: 'Sideways' })).toThrow(/not a playmode/);
  });
});

describe('Home Assistant discovery subscriptions', () => {
  it("stops reading other devices' configs once leftovers are removed on a granted subscription, and does not take it again", () => {
    vi.useFakeTimers();
    const broker = { published: [] as [string, string][], unsubscribed: [] as (readonly string[])[], up: true };
    const link: HaLink = {
      publish: (topic, payload) => broker.published.push([topic, payload]),
      unsubscribe: (topics) => broker.unsubscribed.push(topics),
      isConnected: () => broker.up,
    };
    const ha = new HaDiscovery(new Topics('venue/hall a'), { discoveryPrefix: 'homeassistant', mode: 'device' }, link, silentLog);
    const leftover = `homeassistant/device/${haBaseId('venue/hall a')}-machine-gone/config`;
    try {
      expect(ha.subscriptions).toEqual(['homeassistant/status', 'homeassistant/device/+/config']);
      ha.connected();
      ha.machine('node-a');
      ha.sessionRead();
      vi.advanceTimersByTime(1000);
      // The session is read but the wildcard not granted yet: the leftovers are still to come.
      expect(broker.unsubscribed).toEqual([]);
      ha.subscribed();
      broker.up = false;
      vi.advanceTimersByTime(1000);
      // The broker went away before the removals could be sent: the next connection looks again.
      expect(broker.unsubscribed).toEqual([]);
      expect(ha.subscriptions).toContain('homeassistant/device/+/config');
      broker.up = true;
      ha.connected();
      ha.subscribed();
      ha.message(leftover, Buffer.from('{"dev":{}}'));
      vi.advanceTimersByTime(1000);
      expect(broker.published).toContainEqual([leftover, '']);
      expect(broker.unsubscribed).toEqual([['homeassistant/device/+/config']]);
      expect(ha.subscriptions).toEqual(['homeassistant/status']);
      ha.connected();
      ha.subscribed();
      vi.advanceTimersByTime(1000);
      expect(broker.unsubscribed).toHaveLength(1);
    } finally {
      ha.close();
      vi.useRealTimers();
    }
  });
});

describe.skipIf(MOSQUITTO_MISSING)('Home Assistant discovery on a real Mosquitto', () => {
  const PREFIX = 'test/ha';
  const BASE = 'stagelink_test_ha_cc5e6a';
  const LEFTOVER = `homeassistant/device/${BASE}-machine-gone/config`;
  /** The device of a bridge on `test/HA`, whose prefix makes the same slug. */
  const ALIKE = 'homeassistant/device/stagelink_test_ha_2146e8-machine-gone/config';
  const FOREIGN = 'homeassistant/device/zigbee2mqtt_0x00158d0001/config';
  let venue: TestVenue;
  let bridge: Bridge | undefined;
  let watcher: Watcher;

  beforeAll(async () => {
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, ['homeassistant/#', `${PREFIX}/result`, `${PREFIX}/bridge`]);
    // What an earlier run left (a machine since gone), and other bridges' devices: only the first is removed.
    await watcher.client.publishAsync(LEFTOVER, JSON.stringify({ dev: { ids: [`${BASE}-machine-gone`] }, o: { name: 'stagelink-bridge' }, cmps: {} }), { qos: 1, retain: true });
    await watcher.client.publishAsync(ALIKE, JSON.stringify({ dev: { ids: ['stagelink_test_ha_2146e8-machine-gone'] }, o: { name: 'stagelink-bridge' }, cmps: {} }), { qos: 1, retain: true });
    await watcher.client.publishAsync(FOREIGN, JSON.stringify({ dev: { ids: ['0x00158d0001'] }, o: { name: 'Zigbee2MQTT' }, cmps: {} }), { qos: 1, retain: true });
    bridge = await venue.startBridge(PREFIX, { haDiscovery: true });
  });

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
  });

  const configOf = (topic: string) => (message: Received) => message.topic === topic && typeof message.json === 'object';
  const deviceTopic = (id: string) => `homeassistant/device/${id}/config`;
  const hostnames = () => venue.session.sim.machines().map((machine) => machine.hostname);
  const machineId = (hostname: string) => `${BASE}-machine-${haSlug(hostname)}`;
  /** The session device once the transports are read (the first config may come before). */
  const sessionDevice = (message: Received) => configOf(deviceTopic(BASE))(message) && JSON.stringify(message.json).includes('transport-main-play');
  async function uniqueIds(since: number): Promise<string[]> {
    const ids: string[] = [];
    for (const id of [BASE, ...hostnames().map(machineId)]) {
      const match = id === BASE ? sessionDevice : configOf(deviceTopic(id));
      const config = (await watcher.waitFor(match, 15_000, since, `the config of ${id}`)).json as DeviceConfig;
      ids.push(...Object.values(config.cmps).map((component) => component.unique_id));
    }
    return ids.sort();
  }

  it('publishes the session and every machine as devices, retained, with the keys Home Assistant requires', async () => {
    const session = await watcher.waitFor(sessionDevice, 15_000, 0, 'the session device with its transports');
    expect(schemaProblems(session.json as DeviceConfig)).toEqual([]);
    expect((session.json as DeviceConfig).availability[0]?.topic).toBe(`${PREFIX}/bridge`);
    for (const hostname of hostnames()) {
      const machine = await watcher.waitFor(configOf(deviceTopic(machineId(hostname))), 15_000, 0, `the device of ${hostname}`);
      expect(schemaProblems(machine.json as DeviceConfig)).toEqual([]);
    }
    // Retained: Home Assistant starting later reads them all.
    const late = await Watcher.connect(venue.broker.url, [deviceTopic(BASE)]);
    try {
      expect((await late.waitFor(configOf(deviceTopic(BASE)), 5000, 0, 'the retained session device')).retain).toBe(true);
    } finally {
      await late.close();
    }
  });

  it('says online as plain text on the availability topic, as Home Assistant reads it without a template', async () => {
    const raw = await connectAsync(venue.broker.url, { protocolVersion: 5 });
    try {
      const payloads: string[] = [];
      raw.on('message', (topic, payload) => payloads.push(payload.toString('utf8')));
      await raw.subscribeAsync(`${PREFIX}/bridge`, { qos: 1 });
      await expect.poll(() => payloads, { timeout: 5000 }).toContain('online');
      expect(payloads.every((payload) => payload === 'online' || payload === 'offline')).toBe(true);
    } finally {
      await raw.endAsync();
    }
  });

  it("removes an earlier run's device that is gone with an empty retained payload, and leaves other devices alone", async () => {
    await watcher.waitFor((message) => message.topic === LEFTOVER && message.json === '', 15_000, 0, 'the leftover removed');
    const late = await Watcher.connect(venue.broker.url, ['homeassistant/device/+/config']);
    try {
      await late.waitFor((message) => message.topic === FOREIGN, 5000, 0, 'the other device, still retained');
      await late.waitFor((message) => message.topic === ALIKE, 5000, 0, 'the device of the bridge whose prefix makes the same slug, still retained');
      await late.waitFor(configOf(deviceTopic(BASE)), 5000, 0, 'the session device, still retained');
      expect(late.messages.filter((message) => message.topic === LEFTOVER)).toEqual([]);
    } finally {
      await late.close();
    }
  });

  it("stops reading other devices' configs once the leftovers are removed", async () => {
    await watcher.waitFor((message) => message.topic === LEFTOVER && message.json === '', 15_000, 0, 'the leftover removed');
    /** Home Assistant says `online` and the bridge publishes its session device again. */
    const republished = async (what: string) => {
      const since = watcher.messages.length;
      await watcher.client.publishAsync('homeassistant/status', 'online', { qos: 1 });
      await watcher.waitFor(configOf(deviceTopic(BASE)), 10_000, since, what);
    };
    // The bridge unsubscribes before it publishes again: after this the broker has handled the unsubscribe.
    await republished('the session device after the cleanup');
    // A config under this bridge's own ids that the session does not hold: one the bridge read, it would remove.
    const late = `homeassistant/device/${BASE}-machine-late/config`;
    await watcher.client.publishAsync(late, JSON.stringify({ dev: { ids: [`${BASE}-machine-late`] }, o: { name: 'stagelink-bridge' }, cmps: {} }), { qos: 1, retain: true });
    try {
      const since = watcher.messages.length;
      // A removal would come in the flush after the config arrived, so before the second of these.
      await republished('the session device once');
      await republished('the session device twice');
      expect(watcher.messages.slice(since).filter((message) => message.topic === late && message.json === '')).toEqual([]);
    } finally {
      await watcher.client.publishAsync(late, '', { qos: 1, retain: true });
    }
  });

  it('publishes everything again when Home Assistant says it is online', async () => {
    await watcher.waitFor(configOf(deviceTopic(BASE)), 15_000, 0, 'the first publish');
    const since = watcher.messages.length;
    await watcher.client.publishAsync('homeassistant/status', 'online', { qos: 1 });
    await watcher.waitFor(configOf(deviceTopic(BASE)), 10_000, since, 'the session device again');
    for (const hostname of hostnames()) await watcher.waitFor(configOf(deviceTopic(machineId(hostname))), 10_000, since, `the device of ${hostname} again`);
  });

  it('runs what a button and the playmode select publish, under the command rules', async () => {
    const config = (await watcher.waitFor(sessionDevice, 15_000, 0, 'the session device')).json as DeviceConfig;
    const button = config.cmps[`${BASE}-transport-main-stop`];
    const select = config.cmps[`${BASE}-transport-main-playmode`];
    // What Home Assistant publishes once it has rendered the templates.
    let press = 0;
    const render = (template: unknown, value = '') =>
      String(template)
        .replace('{{ (as_timestamp(now()) * 1000) | int }}', String(Date.now()))
        .replace('{{ (as_timestamp(now()) * 1000000) | int }}', `${Date.now()}${String(press++).padStart(3, '0')}`)
        .replace('{{ value }}', value);
    const since = venue.session.requests.length;
    const results = watcher.messages.length;
    const stop = render(button?.command_template);
    // A press the broker delivers twice (QoS 1) runs once: the copy is answered as a duplicate.
    await watcher.client.publishAsync(String(button?.command_topic), stop, { qos: 1 });
    await watcher.client.publishAsync(String(button?.command_topic), stop, { qos: 1 });
    await watcher.waitFor((message) => message.topic === `${PREFIX}/result` && (message.json as { ok?: boolean }).ok === true, 10_000, results, 'the stop result');
    await watcher.waitFor((message) => message.topic === `${PREFIX}/result` && (message.json as { duplicate?: boolean; ok?: boolean }).duplicate === true, 10_000, results, 'the copy answered as a duplicate');
    expect((watcher.messages.slice(results).find((message) => (message.json as { duplicate?: boolean }).duplicate)?.json as { ok?: boolean }).ok).toBe(false);
    const next = watcher.messages.length;
    await watcher.client.publishAsync(String(select?.command_topic), render(select?.command_template, 'Play'), { qos: 1 });
    await watcher.waitFor((message) => message.topic === `${PREFIX}/result` && (message.json as { ok?: boolean }).ok === true, 10_000, next, 'the play result');
    expect(venue.session.cuesSince(since).map((request) => request.path)).toEqual(['/api/session/transport/stop', '/api/session/transport/play']);
  });

  it('keeps every unique id across a restart of the bridge', async () => {
    const before = await uniqueIds(0);
    expect(before.length).toBeGreaterThan(20);
    await bridge?.close();
    bridge = undefined;
    const since = watcher.messages.length;
    // The broker keeps the configs retained: a new subscriber after the restart reads what the new bridge says.
    bridge = await venue.startBridge(PREFIX, { haDiscovery: true });
    await watcher.client.publishAsync('homeassistant/status', 'online', { qos: 1 });
    expect(await uniqueIds(since)).toEqual(before);
  });

  it('publishes one config per entity in entity mode, under its own prefix', async () => {
    const other = await venue.startBridge('test/ha2', { haDiscovery: 'openhab', haDiscoveryMode: 'entity' });
    const entities = await Watcher.connect(venue.broker.url, ['openhab/#']);
    try {
      const [hostname] = hostnames();
      const id = `stagelink_test_ha2_67a0dc-machine-${haSlug(hostname ?? '')}`;
      const fps = await entities.waitFor((message) => message.topic === `openhab/sensor/${id}/${id}-fps/config`, 15_000, 0, 'the FPS entity');
      expect(fps.json).toMatchObject({ unique_id: `${id}-fps`, state_topic: `test/ha2/machines/${hostname}/fps`, device: { ids: [id] }, origin: { name: 'stagelink-bridge' } });
    } finally {
      await entities.close();
      await other.close();
    }
  });
});

describe('Home Assistant discovery of what left', () => {
  const topics = new Topics('venue/hall a');
  const base = haBaseId('venue/hall a');

  function discovery(mode: 'device' | 'entity') {
    const published: [string, string][] = [];
    const link: HaLink = { publish: (topic, payload) => published.push([topic, payload]), unsubscribe: () => undefined, isConnected: () => true };
    const ha = new HaDiscovery(topics, { discoveryPrefix: 'homeassistant', mode }, link, silentLog);
    ha.connected();
    ha.machine('node-a');
    ha.machine('node-b');
    ha.transport('main');
    ha.transport('side screens');
    ha.transportsRead();
    ha.sessionRead();
    vi.advanceTimersByTime(1000);
    return { ha, published };
  }

  it('in device mode sends each component that went as {"p": platform}, then the config without them; a device with none left is cleared', () => {
    vi.useFakeTimers();
    const { ha, published } = discovery('device');
    try {
      const sessionTopic = `homeassistant/device/${base}/config`;
      const machineTopic = `homeassistant/device/${base}-machine-node_b/config`;
      const before = JSON.parse(published.findLast(([topic]) => topic === sessionTopic)?.[1] ?? '{}') as { cmps: Record<string, HaComponent> };
      const gone = Object.keys(before.cmps).filter((key) => key.includes('-transport-side_screens-'));
      expect(gone.length).toBeGreaterThan(5);
      const since = published.length;
      ha.removed({ what: 'transport', which: 'side screens' });
      ha.removed({ what: 'machine', which: 'node-b' });
      vi.advanceTimersByTime(1000);
      const after = published.slice(since);
      const session = after.filter(([topic]) => topic === sessionTopic).map(([, payload]) => JSON.parse(payload) as { cmps: Record<string, Record<string, unknown>> });
      expect(session).toHaveLength(2);
      for (const key of gone) expect(session[0]?.cmps[key]).toEqual({ p: before.cmps[key]?.p });
      expect(Object.keys(session[1]?.cmps ?? {}).filter((key) => key.includes('side_screens'))).toEqual([]);
      expect(Object.keys(session[1]?.cmps ?? {}).some((key) => key.includes('-transport-main-'))).toBe(true);
      const machine = after.filter(([topic]) => topic === machineTopic).map(([, payload]) => payload);
      expect(machine).toHaveLength(2);
      expect(Object.values((JSON.parse(machine[0] as string) as { cmps: Record<string, unknown> }).cmps)).toEqual([{ p: 'sensor' }, { p: 'sensor' }, { p: 'binary_sensor' }]);
      expect(machine[1]).toBe('');
      expect(after.some(([topic]) => topic.includes('node_a'))).toBe(false);
    } finally {
      ha.close();
      vi.useRealTimers();
    }
  });

  it('in device mode removes what left while the broker was away, once it is back', () => {
    vi.useFakeTimers();
    const { ha, published } = discovery('device');
    try {
      const machineTopic = `homeassistant/device/${base}-machine-node_b/config`;
      // The broker restarts without its retained messages; meanwhile node-b leaves the session.
      ha.removed({ what: 'machine', which: 'node-b' });
      const since = published.length;
      ha.connected();
      vi.advanceTimersByTime(1000);
      const after = published.slice(since);
      expect(after.filter(([topic]) => topic === machineTopic).at(-1)).toEqual([machineTopic, '']);
      // Everything still there is published again, for a broker that lost it.
      expect(after.some(([topic]) => topic === `homeassistant/device/${base}/config`)).toBe(true);
    } finally {
      ha.close();
      vi.useRealTimers();
    }
  });

  it("in device mode removes the components an earlier run's config of the same device lists and this run has not", () => {
    vi.useFakeTimers();
    const published: [string, string][] = [];
    const ha = new HaDiscovery(topics, { discoveryPrefix: 'homeassistant', mode: 'device' }, { publish: (topic, payload) => published.push([topic, payload]), unsubscribe: () => undefined, isConnected: () => true }, silentLog);
    try {
      const sessionTopic = `homeassistant/device/${base}/config`;
      // An earlier run, whose project had a transport "old": its config is retained on the broker.
      const earlier = new HaDiscovery(topics, { discoveryPrefix: 'homeassistant', mode: 'device' }, { publish: (topic, payload) => published.push([topic, payload]), unsubscribe: () => undefined, isConnected: () => true }, silentLog);
      earlier.connected();
      earlier.transport('main');
      earlier.transport('old');
      earlier.transportsRead();
      vi.advanceTimersByTime(1000);
      earlier.close();
      const retained = published.findLast(([topic]) => topic === sessionTopic)?.[1] ?? '';
      const oldKeys = Object.keys((JSON.parse(retained) as { cmps: Record<string, unknown> }).cmps).filter((key) => key.includes('-transport-old-'));
      expect(oldKeys.length).toBeGreaterThan(5);

      const since = published.length;
      ha.connected();
      ha.subscribed();
      ha.message(sessionTopic, Buffer.from(retained));
      ha.transport('main');
      ha.transportsRead();
      ha.sessionRead();
      vi.advanceTimersByTime(1000);
      const session = published.slice(since).filter(([topic]) => topic === sessionTopic).map(([, payload]) => JSON.parse(payload) as { cmps: Record<string, Record<string, unknown>> });
      expect(session).toHaveLength(2);
      for (const key of oldKeys) expect(Object.keys(session[0]?.cmps[key] ?? {})).toEqual(['p']);
      expect(Object.keys(session[1]?.cmps ?? {}).filter((key) => key.includes('-transport-old-'))).toEqual([]);
    } finally {
      ha.close();
      vi.useRealTimers();
    }
  });

  it('in entity mode clears the config of each entity that went', () => {
    vi.useFakeTimers();
    const { ha, published } = discovery('entity');
    try {
      const since = published.length;
      ha.removed({ what: 'transport', which: 'side screens' });
      vi.advanceTimersByTime(1000);
      const after = published.slice(since);
      expect(after.length).toBeGreaterThan(5);
      for (const [topic, payload] of after) {
        expect(topic).toContain('side_screens');
        expect(payload).toBe('');
      }
    } finally {
      ha.close();
      vi.useRealTimers();
    }
  });

  it('publishes no session device before the transports were read, so an earlier config is not replaced by one without them', () => {
    vi.useFakeTimers();
    const published: [string, string][] = [];
    const ha = new HaDiscovery(topics, { discoveryPrefix: 'homeassistant', mode: 'device' }, { publish: (topic, payload) => published.push([topic, payload]), unsubscribe: () => undefined, isConnected: () => true }, silentLog);
    try {
      ha.connected();
      ha.machine('node-a');
      vi.advanceTimersByTime(1000);
      expect(published.map(([topic]) => topic)).toEqual([`homeassistant/device/${base}-machine-node_a/config`]);
      ha.transportsRead();
      vi.advanceTimersByTime(1000);
      expect(published.map(([topic]) => topic)).toContain(`homeassistant/device/${base}/config`);
    } finally {
      ha.close();
      vi.useRealTimers();
    }
  });
});
