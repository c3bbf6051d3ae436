/**
 * The help Companion shows is complete on its own (both dialects): every variable a connected module defines, the
 * minimum Companion version, importing the package, and the MTU troubleshooting.
 */
import { variableIdOf } from '@stagelink/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { packedModule, withReadyModule } from './session.js';

describe('HELP.md in the package', () => {
  withReadyModule('names every variable the module defines, and what a user needs before the first connection', async ({ sim, host }) => {
    const help = readFileSync(join((await packedModule()).dir, 'companion', 'HELP.md'), 'utf8');
    const director = sim.state.machines.sessionInfo().director?.hostname ?? '';
    // An SMC line, so the power variables are defined too.
    await host.configUpdated({ host: sim.mediaServer.url, followDirector: true, backupHosts: '', hosts: '', smcs: `${director}=${sim.smc?.url ?? sim.mediaServer.url}`, smcUser: '', frameRate: 60 });
    await host.waitFor(() => Object.keys(host.variableDefinitions).some((id) => id.startsWith('transport_')) && Object.keys(host.variableDefinitions).some((id) => id.startsWith('machine_')), 'the session defined');

    // Each id without its machine's, transport's or SMC line's part: what HELP.md's rows name.
    const prefixes = [
      ...sim.state.machines.all().map(({ name }) => `machine_${variableIdOf(name)}_`),
      ...sim.state.transports.list().map(({ name }) => `transport_${variableIdOf(name)}_`),
      `smc_${variableIdOf(director)}_`,
    ];
    const suffixes = Object.keys(host.variableDefinitions).map((id) => {
      const prefix = prefixes.find((each) => id.startsWith(each));
      return prefix === undefined ? id : id.slice(prefix.length);
    });
    expect(suffixes).toContain('power_fault');
    // A row may list a family's variables after the first as `_seconds`, `_countdown`.
    for (const suffix of new Set(suffixes)) {
      const last = suffix.split('_').at(-1) ?? suffix;
      expect(help.includes(`_${suffix}\``) || help.includes(`\`${suffix}\``) || help.includes(`_${last}\``), `HELP.md names ${suffix}`).toBe(true);
    }
    expect(help).toMatch(/Companion 4\.3 or later/);
    expect(help).toMatch(/Import module\s+package/);
    expect(help).toMatch(/MTU or jumbo frames/);
    expect(help).not.toMatch(/apps\/companion\/README\.md/);
  });
});
