#!/usr/bin/env node
import { reasonOf } from '@stagelink/core';
import { runCommandLine, untilStopped } from '@stagelink/core/protocol';
import { parseCliArgs, USAGE } from './cli-args.js';
import { jsonLines } from './log.js';
import { OptionError, resolveOptions } from './options.js';
import { startSimulator, type Simulator } from './simulator.js';
import { venueMachines } from './session/venue-machines.js';

/** Exit codes: 0 stopped cleanly, 1 could not start (a port in use), 2 bad flags. */
async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseCliArgs(argv);
    if (command.kind === 'run') resolveOptions(command.options);
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    process.stderr.write(`stagelink-sim: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = jsonLines(process.stdout);
  let sim: Simulator;
  try {
    sim = await startSimulator({ ...command.options, log });
  } catch (error) {
    log({ event: 'error', message: `Could not start: ${reasonOf(error)}` });
    return 1;
  }
  // Listen for signals before announcing: a script may stop us as soon as it reads the ready line.
  const stop = untilStopped();
  process.stdout.write(`${JSON.stringify(readyLine(sim))}\n`);
  await stop;
  log({ event: 'stopping' });
  await sim.close();
  log({ event: 'stopped' });
  return 0;
}

/** The one line a script waits for before it talks to the simulator. */
function readyLine(sim: Simulator) {
  return {
    event: 'ready',
    mediaServer: sim.mediaServer.url,
    drive: sim.drive.url,
    driveToken: sim.drive.token,
    demoDrive: sim.drive.demoDrive,
    scenario: sim.options.scenario,
    dialect: sim.options.dialect,
    ...(sim.smc ? { smc: sim.smc } : {}),
    seed: sim.options.seed,
    ...(sim.options.scenario === 'session' ? { machines: sim.machines().map(({ hostname, role, url, smcUrl }) => ({ hostname, role, url, ...(smcUrl ? { smcUrl } : {}) })) } : {}),
    ...(sim.options.scenario === 'venue' ? { machines: venueMachines(sim.state.machines) } : {}),
  };
}

runCommandLine('stagelink-sim', main);
