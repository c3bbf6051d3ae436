import bridgePackage from '../package.json' with { type: 'json' };

/** The bridge's name and version, as the show log and Home Assistant's origin say who wrote them. */
export const BRIDGE_SOURCE = `stagelink-bridge ${bridgePackage.version}`;
