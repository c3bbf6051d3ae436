/** The `.tgz` Companion imports: a manifest valid against base's schema, an entry that loads and starts. */
import type { CompanionStaticUpgradeScript, JsonObject } from '@companion-module/base';
import { validateManifest } from '@companion-module/base/manifest';
import { TRANSPORT_COMMAND_NAMES } from '@stagelink/core';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CompanionHost, loadPackedModule, PACKAGE_DIR, packedTarball, type PackedModule } from './harness/testing.js';

let packed: PackedModule;
const hosts: CompanionHost[] = [];

beforeAll(async () => {
  packed = await loadPackedModule();
});

afterAll(() => {
  if (packed) rmSync(dirname(packed.dir), { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map(async (host) => host.destroy()));
});

async function started(config: Record<string, string | number | boolean>): Promise<CompanionHost> {
  const host = new CompanionHost(packed);
  hosts.push(host);
  return host.start({ config });
}

describe('the packed module', () => {
  it('runs on Node 22, the runtime its manifest asks Companion for', () => {
    expect(process.versions.node.split('.')[0]).toBe('22');
    expect(packed.manifest.runtime.type).toBe('node22');
  });

  it('has a manifest valid against @companion-module/base schema, with the id saved buttons depend on', () => {
    expect(() => validateManifest(packed.manifest, false)).not.toThrow();
    expect(packed.manifest.id).toBe('stagelink-mediaserver');
    const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
    expect(packed.manifest.version).toBe(version);
    expect(readFileSync(join(packed.dir, 'companion', 'HELP.md'), 'utf8')).toContain('two');
  });

  it("follows Companion's rules for a module: maker, products and keywords to search by, a maintainer to reach, its licence, Node and base", () => {
    expect(packed.manifest.manufacturer).toBe('disguise');
    expect(packed.manifest.keywords).toEqual(expect.arrayContaining(['disguise', 'd3', 'designer', 'media server']));
    expect(packed.manifest.products.length).toBeGreaterThan(0);
    const [maintainer] = packed.manifest.maintainers;
    expect(maintainer?.name).toBeTruthy();
    expect(maintainer?.github ?? maintainer?.email ?? maintainer?.url).toBeTruthy();
    const files = execFileSync('tar', ['-tzf', packedTarball()], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toContain('stagelink-mediaserver/LICENSE');
    expect(readFileSync(join(packed.dir, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    const source = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { engines?: { node?: string }; dependencies?: Record<string, string> };
    expect(source.engines?.node).toBe('>=22.20');
    expect(Object.keys(source.dependencies ?? {})).toContain('@companion-module/base');
  });

  it('is self-contained: one bundled entry, nothing left for Companion to install', () => {
    const files = execFileSync('tar', ['-tzf', packedTarball()], { encoding: 'utf8' }).trim().split('\n');
    expect(files.some((file) => file.includes('node_modules'))).toBe(false);
    const pkg = JSON.parse(readFileSync(join(packed.dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  it("upgrades settings with one SMC address to that machine's line, which saved hardware buttons then name", () => {
    const [upgrade] = packed.upgradeScripts as CompanionStaticUpgradeScript<JsonObject, JsonObject>[];
    if (!upgrade) throw new Error('the module has an upgrade script');
    const config = { host: '10.0.0.5', followDirector: true, hosts: '', smcHost: 'http://10.0.1.5:8080', smcUser: 'admin', frameRate: 60 };
    const saved = (actionId: string, options: Record<string, unknown>) => ({ id: `a-${actionId}`, controlId: 'bank:1', actionId, options: options as never });
    const result = upgrade(
      { currentConfig: config },
      { config, secrets: { smcPassword: 'pw' }, actions: [saved('smc_power', { power: { isExpression: false, value: 'off' } }), saved('oled_message', { message: { isExpression: false, value: 'Doors' } }), saved('play', {})], feedbacks: [] },
    );
    expect(result.updatedConfig).toEqual({ host: '10.0.0.5', followDirector: true, hosts: '', smcs: 'SMC=http://10.0.1.5:8080', smcUser: 'admin', frameRate: 60 });
    expect(result.updatedActions.map(({ actionId, options }) => [actionId, options['machine']])).toEqual([
      ['smc_power', { isExpression: false, value: 'SMC' }],
      ['oled_message', { isExpression: false, value: 'SMC' }],
    ]);

    // Without an SMC address they went to whichever machine directed: now they name none, and are refused.
    const unset = upgrade({ currentConfig: { ...config, smcHost: '' } }, { config: { ...config, smcHost: '' }, secrets: null, actions: [saved('smc_ledstrip', {})], feedbacks: [] });
    expect(unset.updatedConfig).toMatchObject({ smcs: '' });
    expect(unset.updatedConfig).not.toHaveProperty('smcHost');
    expect(unset.updatedActions.map(({ options }) => options['machine'])).toEqual([{ isExpression: false, value: '' }]);
  });

  it('defines an action per transport command, named as the command is saved, and the show actions', async () => {
    const host = await started({ host: '', followDirector: true, hosts: '', smcs: '', smcUser: '', frameRate: 60 });
    const ids = Object.keys(host.actions);
    for (const command of TRANSPORT_COMMAND_NAMES) expect(ids).toContain(command);
    expect(ids).toEqual(expect.arrayContaining(['volume_adjust', 'brightness_adjust', 'failovermachine', 'restoremachine', 'applydefaultrouting', 'oled_message', 'smc_power', 'smc_whoami', 'smc_ledstrip', 'renderstream_start', 'renderstream_restart', 'renderstream_sync', 'renderstream_stop']));
    expect(Object.keys(host.feedbacks).sort()).toEqual(['armed', 'clock_in_section', 'clock_remaining_below', 'clock_stale', 'fps_alert', 'hardware_fault', 'health', 'last_cue_failed', 'layer_state', 'layer_workload', 'link', 'playing', 'playmode', 'power', 'power_fault', 'stale', 'takeover']);
  });

  it('keeps the action and option ids saved buttons hold, whatever core names its commands and fields', async () => {
    const host = await started({ host: '', followDirector: true, hosts: '', smcs: '', smcUser: '', frameRate: 60 });
    const saved = Object.fromEntries(Object.entries(host.actions).map(([id, action]) => [id, (action ? action.options : []).map((option) => option.id)]));
    // Written out, not read from the module or core: a rename shows here, and needs an upgrade script.
    expect(saved).toEqual({
      play: ['transport'],
      stop: ['transport'],
      playsection: ['transport'],
      playloopsection: ['transport'],
      returntostart: ['transport'],
      gototrack: ['transport', 'track', 'playmode'],
      gotonexttrack: ['transport', 'playmode'],
      gotoprevtrack: ['transport', 'playmode'],
      gotosection: ['transport', 'section', 'playmode', 'track'],
      gotonextsection: ['transport', 'playmode'],
      gotoprevsection: ['transport', 'playmode'],
      gotonote: ['transport', 'note', 'playmode', 'track'],
      gototag: ['transport', 'tagType', 'tagValue', 'allowGlobalJump', 'playmode'],
      gototime: ['transport', 'time', 'playmode'],
      gototimecode: ['transport', 'timecode', 'ignoreTags', 'playmode'],
      gotoframe: ['transport', 'frame', 'playmode'],
      volume: ['transport', 'volume'],
      brightness: ['transport', 'brightness'],
      engaged: ['transport', 'engaged'],
      speed: ['transport', 'speed'],
      volume_adjust: ['transport', 'step'],
      brightness_adjust: ['transport', 'step'],
      failovermachine: ['machine'],
      restoremachine: ['machine'],
      applydefaultrouting: [],
      oled_message: ['machine', 'title', 'message', 'priority', 'displayTime'],
      smc_power: ['machine', 'power'],
      smc_whoami: ['machine'],
      smc_ledstrip: ['machine', 'ledMode', 'colour'],
      renderstream_start: ['layer'],
      renderstream_restart: ['layer'],
      renderstream_sync: ['layer'],
      renderstream_stop: ['layer'],
    });
  });

  it('runs the upgrade scripts from any release in order, as Companion does for a saved connection', () => {
    const scripts = packed.upgradeScripts as CompanionStaticUpgradeScript<JsonObject, JsonObject>[];
    // Companion runs every script after the last one a connection ran; a button of the first release runs them all.
    let config: JsonObject = { host: '10.0.0.5', followDirector: true, hosts: '', smcHost: '10.0.1.5', smcUser: 'admin', frameRate: 60 };
    let actions = [{ id: 'a1', controlId: 'bank:1', actionId: 'oled_message', options: { message: { isExpression: false, value: 'Doors' } } as never }];
    for (const script of scripts) {
      const result = script({ currentConfig: config }, { config, secrets: null, actions, feedbacks: [] });
      config = result.updatedConfig ?? config;
      for (const updated of result.updatedActions) actions = actions.map((action) => (action.id === updated.id ? (updated as typeof action) : action));
    }
    expect(config).not.toHaveProperty('smcHost');
    expect(config['smcs']).toBe('SMC=10.0.1.5');
    expect(actions[0]?.options).toEqual({ message: { isExpression: false, value: 'Doors' }, machine: { isExpression: false, value: 'SMC' } });
  });

  it('reports bad_config for an address that is not one, and says why', async () => {
    const host = await started({ host: 'http://bad host:99999', followDirector: true, hosts: '', smcs: '', smcUser: '', frameRate: 60 });
    expect(host.status?.status).toBe('bad_config');
    expect(host.status?.message).toMatch(/not a valid media-server address/);
    await expect(host.runAction('play', { transport: 'main' })).rejects.toThrow(/not set up/);
  });

  it('reports bad_config for a machine address line that is not HOSTNAME=address', async () => {
    const host = await started({ host: '127.0.0.1:1', followDirector: true, hosts: 'DIRECTOR01 10.0.0.5', smcs: '', smcUser: '', frameRate: 60 });
    expect(host.status).toEqual({ status: 'bad_config', message: expect.stringMatching(/HOSTNAME=address/) as unknown });
  });

  it('reports bad_config for a backup address that is not one, naming which', async () => {
    const host = await started({ host: '127.0.0.1:1', followDirector: true, backupHosts: '127.0.0.2:1\nhttp://bad host', hosts: '', smcs: '', smcUser: '', frameRate: 60 });
    expect(host.status).toEqual({ status: 'bad_config', message: expect.stringMatching(/^Address 2 of the list: "http:\/\/bad host" is not a valid media-server address/) as unknown });
    await expect(host.runAction('play', { transport: 'main' })).rejects.toThrow(/Address 2 of the list/);
  });

  it('reports bad_config for backup addresses while the director is not followed', async () => {
    const host = await started({ host: '127.0.0.1:1', followDirector: false, backupHosts: '127.0.0.2:1', hosts: '', smcs: '', smcUser: '', frameRate: 60 });
    expect(host.status).toEqual({ status: 'bad_config', message: expect.stringMatching(/turn on "Follow the director"/) as unknown });
  });

  it('reports bad_config for a DNS-SD interface that is not an IPv4 address, and for DNS-SD while the director is not followed', async () => {
    const named = await started({ host: '127.0.0.1:1', followDirector: true, dnssd: true, dnssdInterface: 'eth0', hosts: '', smcs: '', smcUser: '', frameRate: 60 });
    expect(named.status).toEqual({ status: 'bad_config', message: expect.stringMatching(/^DNS-SD interface: "eth0" is not an IPv4 address: give this computer's address on the show network/) as unknown });
    const unfollowed = await started({ host: '127.0.0.1:1', followDirector: false, dnssd: true, dnssdInterface: '', hosts: '', smcs: '', smcUser: '', frameRate: 60 });
    expect(unfollowed.status).toEqual({ status: 'bad_config', message: expect.stringMatching(/^"Find by DNS-SD" is used when looking for the director: turn on "Follow the director"/) as unknown });
  });

  it('reports bad_config for a management controller line that is not one, never showing a password', async () => {
    const host = await started({ host: '127.0.0.1:1', followDirector: true, hosts: '', smcs: 'ACTOR01=admin:hunter2@10.0.1.6', smcUser: '', frameRate: 60 });
    expect(host.status).toEqual({ status: 'bad_config', message: expect.stringMatching(/^Management controllers \(SMC\): .*ACTOR01 holds a password/) as unknown });
    expect(host.status?.message).not.toContain('hunter2');
  });

  it('asks for the SMC passwords in secret fields, and for each machine\'s SMC as a list', () => {
    const fields = new packed.ModuleClass(new CompanionHost(packed)).getConfigFields();
    expect(fields.find((field) => field.id === 'smcPassword')?.type).toBe('secret-text');
    expect(fields.find((field) => field.id === 'smcPasswords')?.type).toBe('secret-text');
    expect(fields.find((field) => field.id === 'smcs')).toMatchObject({ type: 'textinput', multiline: true, default: '' });
    expect(fields.find((field) => field.id === 'smcHost')).toBeUndefined();
    expect(fields.find((field) => field.id === 'followDirector')).toMatchObject({ type: 'checkbox', default: true });
    expect(fields.find((field) => field.id === 'backupHosts')).toMatchObject({ type: 'textinput', multiline: true, default: '' });
    expect(fields.find((field) => field.id === 'dnssd')).toMatchObject({ type: 'checkbox', default: false });
    expect(fields.find((field) => field.id === 'dnssdInterface')).toMatchObject({ type: 'textinput', default: '' });
  });
});
