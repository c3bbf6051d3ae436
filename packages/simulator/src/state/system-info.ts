import type { DetectedSystem, OsInfo, ProjectInfo, ServiceVfc, VideoFormattingCard } from '@stagelink/core';
import type { MachineRoster } from './machines.js';

/** The operating system image the simulated machines run (osinfo's fields are not shown in the spec). */
export interface SystemImage {
  osName: string;
  osVersion: string;
  imageVersion: string;
}

/** Port configurations of the card types the simulator seeds, for the service `vfcs` details. */
const PORT_CONFIGURATIONS: Readonly<Record<string, string>> = {
  'DP-4': '4 x DisplayPort 1.2, 3840x2160 @ 60',
  'HDMI-4': '4 x HDMI 2.0, 3840x2160 @ 60',
  'SDI-4': '4 x 12G-SDI, 3840x2160 @ 60',
};

/** The host service's view of the network: every configured machine, whatever part it plays now. */
export class SystemInfo {
  constructor(
    private readonly roster: MachineRoster,
    private readonly version: ProjectInfo['version'],
    private readonly addresses: ReadonlyMap<string, string>,
    private readonly image: SystemImage,
  ) {}

  /** A failed-over actor still runs its host service but no longer the application. */
  detectSystems(): DetectedSystem[] {
    const { major, minor, hotfix } = this.version;
    return this.roster.all().map((machine) => ({
      hostname: machine.hostname,
      ipAddress: this.addresses.get(machine.uid) ?? '0.0.0.0',
      version: { major, minor, hotfix },
      isAppRunning: !this.roster.partOf(machine.uid)?.standIn,
      isServiceRunning: true,
    }));
  }

  osInfo(): OsInfo[] {
    return this.roster.all().map((machine) => ({ hostname: machine.hostname, ...this.image }));
  }
}

/** The service family's card details: the hardware list with firmware and port configuration added. */
export function serviceVfcs(cards: readonly VideoFormattingCard[], firmwareVersion: string): ServiceVfc[] {
  return cards.map((card) => ({
    slot: card.slot,
    type: card.type,
    firmwareVersion,
    portConfiguration: PORT_CONFIGURATIONS[card.type] ?? 'unknown',
  }));
}
