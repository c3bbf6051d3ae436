#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { reasonOf } from '@stagelink/core';
import { runCommandLine, untilStopped } from '@stagelink/core/protocol';
import { startBridge, type Bridge } from './bridge.js';
import { parseCliArgs, USAGE, type CliCommand } from './cli-args.js';
import { lineLog } from './log.js';
import { OptionError, resolveOptions, type BridgeOptions } from './options.js';

/** Exit codes: 0 stopped cleanly, 1 could not start, 2 bad flags or unreadable files. */
async function main(argv: readonly string[]): Promise<number> {
  let command: CliCommand;
  let options: BridgeOptions;
  try {
    command = parseCliArgs(argv);
    if (command.kind === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    options = { ...command.options, ...(await secrets(command)) };
    resolveOptions(options);
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    process.stderr.write(`stagelink-bridge: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  const log = lineLog(process.stderr, command.logFormat, options.password ? [options.password] : []);
  let bridge: Bridge;
  try {
    bridge = await startBridge({ ...options, log });
  } catch (error) {
    log.error('could not start', { reason: reasonOf(error) });
    return 1;
  }
  await untilStopped();
  log.info('stopping');
  await bridge.close();
  return 0;
}

/** The password and TLS files, read now so that a wrong path is a clear error before anything starts. */
async function secrets(command: Extract<CliCommand, { kind: 'run' }>): Promise<Pick<BridgeOptions, 'password' | 'tls'>> {
  const read = async (path: string, what: string): Promise<string> => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      throw new OptionError(`Cannot read the ${what} file ${path}: ${(error as NodeJS.ErrnoException).code ?? reasonOf(error)}.`);
    }
  };
  const result: Pick<BridgeOptions, 'password' | 'tls'> = {};
  if (command.passwordFile !== undefined) {
    // A file written by `echo` ends with a newline that is no part of the password.
    result.password = (await read(command.passwordFile, 'password')).replace(/\r?\n$/, '');
    if (result.password === '') throw new OptionError(`The password file ${command.passwordFile} is empty.`);
  }
  const { ca, cert, key } = command.tlsFiles;
  if ((cert === undefined) !== (key === undefined)) throw new OptionError('--tls-cert and --tls-key go together.');
  if (ca !== undefined || cert !== undefined) {
    result.tls = {
      ...(ca === undefined ? {} : { ca: await read(ca, 'CA certificate') }),
      ...(cert === undefined ? {} : { cert: await read(cert, 'client certificate') }),
      ...(key === undefined ? {} : { key: await read(key, 'client key') }),
    };
  }
  return result;
}

runCommandLine('stagelink-bridge', main);
