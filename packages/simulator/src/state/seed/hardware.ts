import type { SessionMachine } from '@stagelink/core';
import type { HardwareSetup } from '../hardware/hardware.js';
import type { SeededRandom } from '../random.js';

/** Firmware the service `vfcs` details report for every card. */
export const VFC_FIRMWARE = '4.2.0';

/**
 * This machine's hardware: three video formatting cards, two network adapters (MACs in the locally
 * administered range 02-53-4C-xx-xx-xx), the SMC status and the chassis readings.
 */
export function seedHardware(local: SessionMachine, address: string, solo: boolean, random: SeededRandom): HardwareSetup {
  const serial = `SL-${random.integer(100000, 999999)}`;
  const mac = () => ['02', '53', '4C', ...[0, 1, 2].map(() => random.integer(0, 255).toString(16).padStart(2, '0').toUpperCase())].join('-');
  return {
    smc: {
      'Firmware version': '2.14.0',
      'BMC status': 'ok',
      Database: 'ok',
      'User accounts': '3',
      Downgrade: 'not permitted',
      'Serial number': serial,
    },
    vfcs: [
      { slot: 1, type: 'DP-4', status: 'ok' },
      { slot: 2, type: 'HDMI-4', status: 'ok' },
      { slot: 3, type: 'SDI-4', status: 'ok' },
    ],
    localMachine: { hostname: local.hostname, serial, type: local.type },
    role: { role: solo ? 'solo' : 'director' },
    adapters: [
      { name: 'Management', ip: address, mac: mac(), netmask: '255.255.255.0' },
      { name: 'Media', ip: '192.168.10.10', mac: mac(), netmask: '255.255.0.0' },
    ],
    chassisReadings: {
      'Power Overload': 'false',
      'Main Power Fault': 'false',
      'Power Control Fault': 'false',
      'Fan 1': `${random.integer(4800, 6200)} RPM`,
      'Fan 2': `${random.integer(4800, 6200)} RPM`,
      'CPU Temp': `${random.integer(38, 52)} degrees C`,
      'Inlet Temp': `${random.integer(21, 27)} degrees C`,
    },
  };
}
