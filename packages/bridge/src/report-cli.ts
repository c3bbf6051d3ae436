#!/usr/bin/env node
import { resolve } from 'node:path';
import { InvalidInputError, reasonOf } from '@stagelink/core';
import { runCommandLine } from '@stagelink/core/protocol';
import { OptionError } from './options.js';
import { parseReportArgs, REPORT_USAGE, type ReportCommand } from './report/report-args.js';
import { writeShowReport } from './report/show-report.js';

/** Exit codes: 0 written, 1 could not read the log or write the page, 2 bad arguments or no such log. */
async function main(argv: readonly string[]): Promise<number> {
  let command: ReportCommand;
  try {
    command = parseReportArgs(argv);
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    process.stderr.write(`stagelink-report: ${error.message}\n\n${REPORT_USAGE}\n`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${REPORT_USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  try {
    const { model, bytes } = await writeShowReport(command.log, command.output, {
      ...(command.from ? { from: command.from } : {}),
      ...(command.to ? { to: command.to } : {}),
      onProgress: (line) => void process.stderr.write(`stagelink-report: ${line}\n`),
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `stagelink-report: wrote ${resolve(command.output)} (${(bytes / 1024).toFixed(0)} KiB): ${count(model.machines.length, 'machine')}, ` +
        `${count(model.incidents.length, 'incident')}, ${count(model.commands.length, 'command')} from ${count(model.records, 'record')}` +
        `${model.skipped > 0 ? ` (${count(model.skipped, 'unreadable line')} skipped)` : ''} in ${seconds} s\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof OptionError || error instanceof InvalidInputError) {
      process.stderr.write(`stagelink-report: ${error.message}\n\n${REPORT_USAGE}\n`);
      return 2;
    }
    process.stderr.write(`stagelink-report: could not write the report: ${reasonOf(error)}\n`);
    return 1;
  }
}

function count(value: number, unit: string): string {
  return `${value.toLocaleString('en-US')} ${unit}${value === 1 ? '' : 's'}`;
}

runCommandLine('stagelink-report', main);
