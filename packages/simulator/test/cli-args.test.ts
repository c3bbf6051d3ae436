import { describe, expect, it } from 'vitest';
import { CLI_DEFAULTS, parseCliArgs } from '../src/cli-args.js';
import { OptionError, resolveOptions, sessionHostname } from '../src/options.js';

describe('stagelink-sim flags', () => {
  it('defaults to 127.0.0.1:8080 and drive port 8081', () => {
    expect(parseCliArgs([])).toEqual({ kind: 'run', options: { host: '127.0.0.1', ...CLI_DEFAULTS, scenario: undefined, seed: undefined, dnssd: false } });
  });

  it('reads every flag', () => {
    const command = parseCliArgs(['--host', '0.0.0.0', '--port', '0', '--drive-port', '9000', '--scenario', 'solo', '--seed', '42', '--dnssd']);
    expect(command).toEqual({ kind: 'run', options: { host: '0.0.0.0', port: 0, drivePort: 9000, scenario: 'solo', seed: 42, dnssd: true } });
  });

  it('answers help', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--port', 'eighty'], /--port must be a whole number/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--seed', '-1'], /--seed/],
    [['--scenario', 'tour'], /--scenario must be one of demo, solo, session/],
    [['--colour', 'red'], /Unknown option '--colour'/],
    [['extra'], /positional/],
    [['--host', ''], /--host needs a value/],
  ])('refuses %j with a clear OptionError', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(OptionError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });

  it('names this machine by its listen address, loopback for a wildcard', () => {
    expect(sessionHostname('127.0.0.5')).toBe('127.0.0.5');
    expect(sessionHostname('0.0.0.0')).toBe('127.0.0.1');
  });

  it('accepts the session scenario', () => {
    expect(resolveOptions({ scenario: 'session' }).scenario).toBe('session');
  });
});
