/** `@stagelink/companion/testing`: the packed module and a stand-in for Companion to run it in. */
export { CompanionHost, type HostEvent, type LogLine, type StartOptions, type StatusReport } from './companion-host.js';
export { loadPackedModule, packedTarball, PACKAGE_DIR, type PackedModule } from './packed-module.js';
