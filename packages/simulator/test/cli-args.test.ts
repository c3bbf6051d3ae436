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

  it('reads the back-to-back window of the live stream', () => {
    expect(parseCliArgs(['--back-to-back-ms', '0'])).toMatchObject({ kind: 'run', options: { backToBackMs: 0 } });
    expect(parseCliArgs(['--back-to-back-ms', '40'])).toMatchObject({ kind: 'run', options: { backToBackMs: 40 } });
    expect(resolveOptions({ dialect: 'r34' }).backToBackMs).toBe(20);
    expect(resolveOptions({ dialect: 'spec' }).backToBackMs).toBe(0);
    expect(resolveOptions({ dialect: 'r34', backToBackMs: 0 }).backToBackMs).toBe(0);
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
    [['--back-to-back-ms', 'soon'], /--back-to-back-ms must be a whole number from 0 to 60000/],
    [['--back-to-back-ms', '70000'], /--back-to-back-ms must be a whole number from 0 to 60000/],
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
