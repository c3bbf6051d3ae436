import { describe, expect, it } from 'vitest';
import { LateAnswerError, StalledAnswerError, TimeoutError, type Clock } from '@stagelink/core';
import { parseCliArgs } from '../src/cli-args.js';
import { commandDeadline } from '../src/command-age.js';
import { failureResult } from '../src/command-result.js';
import { parseCommand, readEnvelope, readPayload } from '../src/commands.js';
import { FpsThrottle, type FpsPayload } from '../src/fps-throttle.js';
import { lineLog, redactUrl } from '../src/log.js';
import { OptionError, resolveOptions } from '../src/options.js';
import { idWindowMs } from '../src/command-runner.js';
import { RecentIds } from '../src/recent-ids.js';
import { RetainedState } from '../src/retained-state.js';
import { payloadOf, type StateEvent } from '../src/session-events.js';
import { SessionStateStream } from '../src/session-state.js';
import { DashboardSummary, type SummaryHealth, type SummaryPayload } from '../src/summary.js';
import { readFailureReason, STALE_REASONS } from '../src/stale-reasons.js';
import { defaultPrefix, Topics, topicSegment } from '../src/topics.js';

describe('topics', () => {
  it('turns /, + and # in names into _ so each name stays one topic segment', () => {
    expect(topicSegment('a/b+c#d')).toBe('a_b_c_d');
    expect(topicSegment('')).toBe('_');
    expect(new Topics('stagelink/show').transportState('side screens')).toBe('stagelink/show/transports/side screens/state');
    expect(new Topics('p').machineFps('x/y')).toBe('p/machines/x_y/fps');
  });

  it('defaults the prefix to the hostname of the server', () => {
    expect(defaultPrefix('http://10.0.0.5:8080')).toBe('stagelink/10.0.0.5');
    expect(defaultPrefix('DIRECTOR01')).toBe('stagelink/DIRECTOR01');
  });

  it('refuses a prefix with wildcards or empty levels', () => {
    for (const prefix of ['a/#', 'a/+/b', '$SYS/x', 'a//b', '/a', 'a/']) {
      expect(() => resolveOptions({ server: 'x', mqtt: 'mqtt://h', prefix })).toThrow(OptionError);
    }
  });
});

describe('command line', () => {
  it('reads the documented flags and the broker account', () => {
    const command = parseCliArgs(['--server', '10.0.0.5', '--mqtt=mqtt://h:1883', '--follow-director', '--fps-hz', '2', '--max-command-age', '1500', '--username', 'bridge', '--password-file', '/run/pw', '--hosts', 'DIRECTOR01=10.0.0.5,ACTOR01=10.0.0.6']);
    expect(command).toMatchObject({
      kind: 'run',
      options: { server: '10.0.0.5', mqtt: 'mqtt://h:1883', followDirector: true, fpsHz: 2, maxCommandAgeMs: 1500, username: 'bridge', hosts: { DIRECTOR01: '10.0.0.5', ACTOR01: '10.0.0.6' } },
      passwordFile: '/run/pw',
    });
  });

  it('reads backup addresses and DNS-SD, which only a bridge following the director takes', () => {
    const command = parseCliArgs(['--server', '10.0.0.5', '--mqtt', 'mqtt://h', '--follow-director', '--backup-hosts', '10.0.0.6, 10.0.0.7:8080', '--dnssd', '--dnssd-interface', '10.0.0.2']);
    expect(command).toMatchObject({ kind: 'run', options: { followDirector: true, backupHosts: ['10.0.0.6', '10.0.0.7:8080'], dnssd: true, dnssdInterface: '10.0.0.2' } });
    // A list flag is read as the OSC lists are: a trailing comma adds no empty host.
    expect(parseCliArgs(['--server', 'x', '--mqtt', 'mqtt://h', '--backup-hosts', '10.0.0.6,'])).toMatchObject({ options: { backupHosts: ['10.0.0.6'] } });
    expect(() => resolveOptions({ server: 'x', mqtt: 'mqtt://h', backupHosts: ['10.0.0.6'] })).toThrow(/--backup-hosts .*--follow-director/);
    expect(resolveOptions({ server: 'x', mqtt: 'mqtt://h', followDirector: true, backupHosts: ['10.0.0.6', '10.0.0.7:8080'] }).backupHosts).toEqual(['http://10.0.0.6', 'http://10.0.0.7:8080']);
    expect(() => resolveOptions({ server: 'x', mqtt: 'mqtt://h', followDirector: true, backupHosts: ['10.0.0.6', '10.0.0.7:port'] })).toThrow(/^--backup-hosts: Address 2 of the list: /);
    expect(() => resolveOptions({ server: 'x', mqtt: 'mqtt://h', dnssd: true })).toThrow(/--dnssd .*--follow-director/);
    expect(() => resolveOptions({ server: 'x', mqtt: 'mqtt://h', followDirector: true, backupHosts: ['10.0.0.6', ' '] })).toThrow(/--backup-hosts must be addresses/);
    expect(() => resolveOptions({ server: 'x', mqtt: 'mqtt://h', followDirector: true, dnssd: true, dnssdInterface: 'eth0' })).toThrow(/^--dnssd-interface: "eth0" is not an IPv4 address/);
    expect(resolveOptions({ server: 'x', mqtt: 'mqtt://h', followDirector: true, dnssd: true, dnssdInterface: ' 10.0.0.2 ' }).dnssdInterface).toBe('10.0.0.2');
  });

  it('reads the folder the show log is recorded into, refusing an empty one', () => {
    expect(parseCliArgs(['--server', 'x', '--mqtt', 'mqtt://h', '--record', '/var/log/show'])).toMatchObject({ options: { record: '/var/log/show' } });
    expect(resolveOptions({ server: 'x', mqtt: 'mqtt://h', record: ' /var/log/show ' }).record).toBe('/var/log/show');
    expect(() => resolveOptions({ server: 'x', mqtt: 'mqtt://h', record: ' ' })).toThrow(/--record takes the folder/);
  });

  it('refuses a password on the command line, unknown flags and missing values', () => {
    expect(() => parseCliArgs(['--server', 'x', '--mqtt', 'mqtt://h', '--password', 'secret'])).toThrow(/password-file/);
    expect(() => parseCliArgs(['--server', 'x', '--mqtt', 'mqtt://h', '--nope'])).toThrow(/Unknown flag/);
    expect(() => parseCliArgs(['--server'])).toThrow(/needs a value/);
    expect(() => parseCliArgs(['--mqtt', 'mqtt://h'])).toThrow(/--server is required/);
    expect(() => parseCliArgs(['--server', 'x', '--mqtt', 'mqtt://h', '--fps-hz', 'fast'])).toThrow(/number/);
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
  });
});

describe('logs', () => {
  it('never writes a password, in a URL or anywhere in a line', () => {
    const lines: string[] = [];
    const log = lineLog({ write: (line: string) => lines.push(line) }, 'json', ['hunter2']);
    log.error('broker error', { reason: 'bad password hunter2', broker: redactUrl('mqtt://bridge:hunter2@h:1883') });
    expect(lines.join('')).not.toContain('hunter2');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 'error', event: 'broker error', broker: 'mqtt://bridge:***@h:1883' });
  });
});

describe('commands', () => {
  const body = (text: string) => readPayload(Buffer.from(text));

  it('reads a transport command with core fields', () => {
    expect(parseCommand('transport/gototrack', body('{"transport":"main","track":{"name":"Intro"},"playmode":"play","id":"1"}'))).toEqual({
      kind: 'transport',
      command: 'gototrack',
      transports: [{ name: 'main' }],
      fields: { track: { name: 'Intro' }, playmode: 'play' },
    });
    expect(parseCommand('transport/play', body('{"transport":["main",{"uid":"9007199254740993"}]}'))).toMatchObject({ transports: [{ name: 'main' }, { uid: '9007199254740993' }] });
  });

  it('refuses unknown commands, unknown fields, wrong kinds and missing fields before anything is sent', () => {
    expect(() => parseCommand('transport/explode', body('{"transport":"main"}'))).toThrow(/not a transport command/);
    expect(() => parseCommand('transport/play/extra', body('{"transport":"main"}'))).toThrow(/not a command/);
    expect(() => parseCommand('transport/play', body('{"transport":"main","track":"Intro"}'))).toThrow(/Unknown field "track"/);
    expect(() => parseCommand('transport/volume', body('{"transport":"main","volume":"loud"}'))).toThrow(/volume must be a number/);
    expect(() => parseCommand('transport/gototrack', body('{"transport":"main"}'))).toThrow(/needs track/);
    expect(() => parseCommand('transport/play', body('{}'))).toThrow(/needs transport/);
    expect(() => parseCommand('transport/play', body('{"transport":{"uid":12}}'))).toThrow(/decimal digits/);
    expect(() => readPayload(Buffer.from('[1]'))).toThrow(/JSON object/);
    expect(() => readEnvelope(body('{"sentAt":"now"}'))).toThrow(/sentAt/);
  });

  it('needs confirm: true for failover and restore', () => {
    expect(() => parseCommand('failover/failovermachine', body('{"machine":"Actor 1"}'))).toThrow(/confirm/);
    expect(() => parseCommand('failover/failovermachine', body('{"machine":"Actor 1","confirm":"true"}'))).toThrow(/confirm/);
    expect(parseCommand('failover/failovermachine', body('{"machine":"Actor 1","confirm":true}'))).toEqual({ kind: 'failover', operation: 'failovermachine', machine: { name: 'Actor 1' } });
    expect(parseCommand('failover/applydefaultrouting', body('{}'))).toEqual({ kind: 'failover', operation: 'applydefaultrouting' });
  });
});

describe('command age', () => {
  const rules = { maxAgeMs: 2000, acceptUntimed: false };

  it('refuses a command sent longer ago than the maximum age, or from a clock far ahead', () => {
    expect(commandDeadline({ sentAt: 10_000 }, 11_000, undefined, rules)).toBe(12_000);
    expect(() => commandDeadline({ sentAt: 10_000 }, 12_500, undefined, rules)).toThrow(/2500 ms ago/);
    expect(() => commandDeadline({ sentAt: 20_000 }, 10_000, undefined, rules)).toThrow(/ahead/);
  });

  it('takes a message expiry no longer than the maximum age, and refuses untimed commands unless told', () => {
    expect(commandDeadline({}, 10_000, 1, rules)).toBe(11_000);
    expect(() => commandDeadline({}, 10_000, 60, rules)).toThrow(/expiry is 60 s/);
    expect(() => commandDeadline({}, 10_000, undefined, rules)).toThrow(/neither/);
    expect(commandDeadline({}, 10_000, undefined, { ...rules, acceptUntimed: true })).toBe(12_000);
  });
});

describe('recent ids', () => {
  it('forgets the oldest id past its limit', () => {
    const ids = new RecentIds<number>(3);
    for (let index = 0; index < 5; index++) ids.remember(`id${index}`, index);
    expect(ids.size).toBe(3);
    expect(ids.get('id0')).toBeUndefined();
    expect(ids.get('id4')).toBe(4);
  });

  it('forgets an id once its window has passed: at the default age a press 5 s later is new, a copy 100 ms later is not', () => {
    let now = 0;
    const ids = new RecentIds<true>(10_000, idWindowMs(2000), () => now);
    ids.remember('osc 10.0.0.5\ngo-12', true);
    now = 100;
    expect(ids.get('osc 10.0.0.5\ngo-12')).toBe(true);
    expect(ids.get('osc 10.0.0.6\ngo-12')).toBeUndefined();
    now = 5000;
    expect(ids.get('osc 10.0.0.5\ngo-12')).toBeUndefined();
    expect(ids.size).toBe(0);
  });
});

/** A clock moved by hand: `advance` runs the timers that fall due. */
function manualClock() {
  let now = 0;
  const timers: { at: number; callback: () => void }[] = [];
  const clock: Clock = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const timer = { at: now + ms, callback };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (handle) => timers.splice(timers.indexOf(handle as (typeof timers)[number]), 1),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const timer of timers.filter((candidate) => candidate.at <= now)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.callback();
    }
  };
  return { clock, advance, now: () => now };
}

describe('FPS throttle', () => {
  function harness(periodMs: number, deadband: number) {
    const { clock, advance, now } = manualClock();
    const sent: { at: number; payload: FpsPayload }[] = [];
    const throttle = new FpsThrottle(periodMs, deadband, (payload) => sent.push({ at: now(), payload }), clock);
    return { throttle, sent, advance };
  }
  const fps = (value: number, alert: FpsPayload['alert'] = 'ok'): FpsPayload => ({ value, average: value, alert });

  it('sends at most one message per period, the newest value winning', () => {
    const { throttle, sent, advance } = harness(250, 0.05);
    for (let tick = 0; tick < 100; tick++) {
      throttle.offer(fps(50 + tick));
      advance(10);
    }
    advance(1000);
    const gaps = sent.slice(1).map((message, index) => message.at - (sent[index]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(250);
    expect(sent.at(-1)?.payload.value).toBe(149);
  });

  it('drops changes inside the deadband unless the alert class changes, and says stale at once', () => {
    const { throttle, sent, advance } = harness(250, 0.5);
    throttle.offer(fps(59.9));
    advance(300);
    throttle.offer(fps(59.8));
    advance(300);
    expect(sent).toHaveLength(1);
    throttle.offer(fps(59.7, 'warning'));
    advance(300);
    expect(sent).toHaveLength(2);
    throttle.markStale(STALE_REASONS.noLink);
    expect(sent.at(-1)?.payload).toMatchObject({ value: 59.7, stale: true, reason: 'no link' });
    throttle.offer(fps(59.7, 'warning'));
    advance(300);
    expect(sent.at(-1)?.payload).toEqual(fps(59.7, 'warning'));
  });

  it('says a stale value again only when the reason changes, and the next value clears both', () => {
    const { throttle, sent, advance } = harness(250, 0.05);
    throttle.offer(fps(60));
    throttle.markStale(STALE_REASONS.valuesStopped);
    throttle.markStale(STALE_REASONS.valuesStopped);
    expect(sent.map((message) => message.payload.reason)).toEqual([undefined, 'values stopped']);
    throttle.markStale(STALE_REASONS.noLink);
    expect(sent.at(-1)?.payload).toEqual({ ...fps(60), stale: true, reason: 'no link' });
    advance(300);
    throttle.offer(fps(60));
    expect(sent.at(-1)?.payload).toEqual(fps(60));
  });
});

describe('dashboard summary', () => {
  function harness(periodMs: number) {
    const { clock, advance, now } = manualClock();
    const sent: { at: number; payload: SummaryPayload }[] = [];
    const summary = new DashboardSummary(periodMs, (payload) => sent.push({ at: now(), payload }), clock);
    return { summary, sent, advance };
  }

  it('holds every machine keyed as its topics are, FPS and health each with its own stale mark', () => {
    const { summary, sent, advance } = harness(250);
    summary.fps('DIRECTOR01', { value: 59.9, average: 59.8, alert: 'ok' });
    summary.health('DIRECTOR01', { severity: 'ok' });
    summary.fps('rack/2', { value: 48, average: 49, alert: 'error' });
    advance(250);
    summary.health('rack/2', { severity: 'warning', stale: true, reason: STALE_REASONS.readFailed });
    advance(250);
    expect(sent.at(-1)?.payload).toEqual({
      machines: {
        DIRECTOR01: { fps: { value: 59.9, average: 59.8, alert: 'ok' }, health: { severity: 'ok' } },
        rack_2: { fps: { value: 48, average: 49, alert: 'error' }, health: { severity: 'warning', stale: true, reason: 'read failed' } },
      },
    });
    summary.fps('DIRECTOR01', { value: 59.9, average: 59.8, alert: 'ok', stale: true, reason: STALE_REASONS.noLink });
    advance(250);
    expect(sent.at(-1)?.payload.machines.DIRECTOR01).toEqual({ fps: { value: 59.9, average: 59.8, alert: 'ok', stale: true, reason: 'no link' }, health: { severity: 'ok' } });
  });

  it('takes only what the summary shows from a machine topic: no states, no keys of a live value', () => {
    const { summary, sent } = harness(250);
    summary.health('A', { severity: 'ok', states: [{ name: 'Genlock' }] } as SummaryHealth);
    expect(sent.at(-1)?.payload.machines.A).toEqual({ health: { severity: 'ok' } });
  });

  it('goes out at most once a period, the first change at once and the newest state at the end of the period', () => {
    const { summary, sent, advance } = harness(250);
    for (let tick = 0; tick < 100; tick++) {
      summary.fps(`M${tick % 20}`, { value: 50 + tick, average: 50, alert: 'ok' });
      advance(10);
    }
    advance(1000);
    expect(sent[0]?.at).toBe(0);
    const gaps = sent.slice(1).map((message, index) => message.at - (sent[index]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(250);
    expect(sent.at(-1)?.payload.machines.M19?.fps?.value).toBe(149);
    expect(Object.keys(sent.at(-1)?.payload.machines ?? {})).toHaveLength(20);
  });

  it('publishes nothing in a period without a change, and nothing after close', () => {
    const { summary, sent, advance } = harness(250);
    summary.fps('A', { value: 60, average: 60, alert: 'ok' });
    advance(5000);
    expect(sent).toHaveLength(1);
    summary.fps('A', { value: 59, average: 59.5, alert: 'ok' });
    summary.close();
    summary.fps('A', { value: 58, average: 59, alert: 'ok' });
    advance(5000);
    expect(sent).toHaveLength(2);
  });
});

describe('stale marks', () => {
  it('keeps the last value, adds the reason, and repeats nothing while the reason holds', () => {
    const stream = new SessionStateStream();
    const told: StateEvent[] = [];
    stream.use({ state: (event) => told.push(event), removed: () => undefined, close: () => undefined });
    const health = { what: 'session', part: 'health' } as const;
    stream.markStale(health, STALE_REASONS.noLink);
    expect(told).toEqual([]);
    stream.state({ ...health, value: { severity: 'ok' } });
    stream.markStale(health, STALE_REASONS.largeAnswersFail);
    stream.markStale(health, STALE_REASONS.largeAnswersFail);
    stream.markStale(health, STALE_REASONS.readFailed);
    expect(told.slice(1).map(payloadOf)).toEqual([
      { severity: 'ok', stale: true, reason: 'large answers fail (MTU?)' },
      { severity: 'ok', stale: true, reason: 'read failed' },
    ]);
    const retained = new RetainedState();
    expect(retained.set('p/session/health', payloadOf(told[1] as StateEvent))).toBe('{"severity":"ok","stale":true,"reason":"large answers fail (MTU?)"}');
    expect(retained.set('p/session/health', payloadOf(told[1] as StateEvent))).toBeUndefined();
  });

  it('tells a stalled answer (the machine is there) from a read that failed otherwise', () => {
    expect(readFailureReason(new StalledAnswerError('stalled', 1500))).toBe('large answers fail (MTU?)');
    expect(readFailureReason(new TimeoutError('no answer', 1500))).toBe('read failed');
    expect(readFailureReason(new Error('anything'))).toBe('read failed');
  });
});

describe('command results', () => {
  it('tells a cue that landed late from one whose outcome is unknown, both failed and sent once', () => {
    expect(failureResult('go-1', new LateAnswerError('gototrack answered late; it landed.', 'landed', 2000))).toEqual({
      id: 'go-1',
      ok: false,
      error: 'gototrack answered late; it landed.',
      code: 'STAGELINK_ERR_LATE_LANDED',
      outcome: 'landed',
    });
    expect(failureResult('go-2', new LateAnswerError('play answered late.', 'unknown', 2000))).toMatchObject({ ok: false, code: 'STAGELINK_ERR_LATE_UNKNOWN', outcome: 'unknown' });
  });

  it('gives other failures their code and no outcome', () => {
    expect(failureResult(undefined, new TimeoutError('no answer', 2000))).toEqual({ id: null, ok: false, error: 'no answer', code: 'STAGELINK_ERR_TIMEOUT' });
    expect(failureResult('x', new Error('plain'))).toEqual({ id: 'x', ok: false, error: 'plain' });
  });
});
