import { describe, expect, it } from 'vitest';
import { normaliseMac } from '../src/state/hardware/network-adapters.js';
import { StatusCode } from '../src/state/refusal.js';
import { demoState, refusalOf } from './support/demo-state.js';

describe('network adapters', () => {
  it('finds an adapter by its MAC in any case and with colons', () => {
    const { hardware } = demoState();
    const [management] = hardware.adapters.list();
    const mac = management?.mac ?? '';
    expect(mac).toMatch(/^02-53-4C(-[0-9A-F]{2}){3}$/);
    expect(hardware.adapters.get(mac.toLowerCase().replace(/-/g, ':'))).toEqual(management);
  });

  it('refuses an unknown MAC as not found', () => {
    const refusal = refusalOf(() => demoState().hardware.adapters.get('00-11-22-33-44-55'));
    expect(refusal.code).toBe(StatusCode.notFound);
    expect(refusal.message).toContain('00-11-22-33-44-55');
  });

  it('updates an adapter but never its MAC, and checks dotted decimals', () => {
    const { hardware } = demoState();
    const adapter = hardware.adapters.list()[1];
    if (!adapter) throw new Error('the demo has two adapters');
    hardware.adapters.update(adapter.mac, { ...adapter, ip: '192.168.10.50' });
    expect(hardware.adapters.get(adapter.mac).ip).toBe('192.168.10.50');
    expect(refusalOf(() => hardware.adapters.update(adapter.mac, { ...adapter, mac: '02-00-00-00-00-01' })).message).toContain('cannot change');
    expect(refusalOf(() => hardware.adapters.update(adapter.mac, { ...adapter, netmask: '255.255.256.0' })).code).toBe(StatusCode.invalidArgument);
  });

  it('replaces the list, refusing a MAC listed twice', () => {
    const { hardware } = demoState();
    const adapter = { name: 'Only', ip: '10.1.1.1', mac: 'aa-bb-cc-dd-ee-ff', netmask: '255.0.0.0' };
    hardware.adapters.replace([adapter]);
    expect(hardware.adapters.list()).toEqual([{ ...adapter, mac: 'AA-BB-CC-DD-EE-FF' }]);
    expect(refusalOf(() => hardware.adapters.replace([adapter, adapter])).message).toContain('appears twice');
  });

  it('normalises MACs and rejects other text', () => {
    expect(normaliseMac('0a:1b:2c:3d:4e:5f')).toBe('0A-1B-2C-3D-4E-5F');
    expect(normaliseMac('0a-1b:2c-3d-4e-5f')).toBeUndefined();
    expect(normaliseMac('not a mac')).toBeUndefined();
  });
});

describe('machine hardware', () => {
  it('starts logged out; clearing the SMC database logs out again', () => {
    const { hardware } = demoState();
    expect(hardware.loggedIn).toBe(false);
    hardware.loggedIn = true;
    hardware.clearSmc();
    expect(hardware.loggedIn).toBe(false);
    expect(hardware.smc.status()).toMatchObject({ Database: 'cleared', 'User accounts': '0' });
  });

  it('replaces the video formatting cards, refusing a slot used twice', () => {
    const { hardware } = demoState();
    hardware.replaceVfcs([{ slot: 4, type: 'DP-4', status: 'ok' }]);
    expect(hardware.vfcs()).toEqual([{ slot: 4, type: 'DP-4', status: 'ok' }]);
    expect(refusalOf(() => hardware.replaceVfcs([{ slot: 1, type: 'a', status: 'ok' }, { slot: 1, type: 'b', status: 'ok' }])).code).toBe(
      StatusCode.invalidArgument,
    );
  });

  it('accepts only the known session roles', () => {
    const { hardware } = demoState();
    expect(hardware.sessionRole()).toEqual({ role: 'director' });
    hardware.setSessionRole({ role: 'understudy' });
    expect(hardware.sessionRole()).toEqual({ role: 'understudy' });
    expect(refusalOf(() => hardware.setSessionRole({ role: 'boss' })).message).toContain('director, actor, understudy, solo');
  });

  it('reports chassis power through status and stats', () => {
    const { hardware } = demoState();
    hardware.chassis.powerOff();
    expect(hardware.chassis.powerStatus()).toBe('Chassis Power is off');
    expect(hardware.chassis.stats()['System Power']).toBe('off');
    hardware.chassis.powerCycle();
    expect(hardware.chassis.power).toBe('on');
  });

  it('counts whoami blinks', () => {
    const { hardware } = demoState();
    hardware.chassis.identify();
    expect(hardware.chassis.identifications).toBe(1);
  });
});
