import type { MediaServer, TransportCommandFields } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { fireCue, readCue, type Cue } from '../../src/state/cues/cue.js';

/** Records what a cue hands to core's `transport.send` (core's own tests pin the request bodies). */
function recordingServer() {
  const calls: unknown[][] = [];
  const send = (command: string, transports: unknown, fields: unknown) => (calls.push([command, transports, fields]), Promise.resolve());
  return { calls, server: { transport: { send } } as unknown as MediaServer };
}

function cueOf(settings: Record<string, unknown>): Cue {
  const reading = readCue(settings as never);
  if (!reading.ok) throw new Error(reading.problem);
  return reading.cue;
}

describe('reading a transport key', () => {
  it.each([
    [{}, 'Choose a command.'],
    [{ command: 'explode', transport: 'main' }, 'Unknown command "explode".'],
    [{ command: 'play' }, 'Choose a transport.'],
    [{ command: 'play', transport: '   ' }, 'Choose a transport.'],
    [{ command: 'gototrack', transport: 'main' }, 'Set the track.'],
    [{ command: 'gototime', transport: 'main', time: 'soon' }, 'Set the time (a number).'],
    [{ command: 'gototag', transport: 'main', tagType: 'cue' }, 'Set the tag value.'],
    [{ command: 'volume', transport: 'main' }, 'Set the volume (0 to 1).'],
    [{ command: 'constructor', transport: 'main' }, 'Unknown command "constructor".'],
    [{ command: 42, transport: ['main'] }, 'Unknown command "42".'],
    [{ command: 'gotosection', transport: 'main' }, 'Set the section (its index: 0, 1, 2, ...).'],
    [{ command: 'gotosection', transport: 'main', section: 'Chorus' }, 'The section "Chorus" is a name: choose it again by its index (0 is the first). "Go to note" goes by name.'],
    [{ command: 'gotosection', transport: 'main', section: -1 }, 'The section must be an index: 0, 1, 2, ... (not -1).'],
    [{ command: 'gotosection', transport: 'main', section: '1.5' }, 'The section must be an index: 0, 1, 2, ... (not 1.5).'],
    [{ command: 'speed', transport: 'main', speed: 'fast' }, 'Set the speed (1 is normal).'],
  ])('%j is not a cue: %s', (settings, problem) => {
    const reading = readCue(settings as never);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problem).toBe(problem);
  });

  it('names the cue after its target', () => {
    expect(cueOf({ command: 'gototrack', transport: 'main', track: 'Intro' })).toMatchObject({ label: 'GO TO TRACK', name: 'Intro' });
    expect(cueOf({ command: 'PLAY', transport: 'main' })).toMatchObject({ label: 'PLAY', name: 'main' });
  });

  it('reads a command by its client method name too, in any case', () => {
    expect(cueOf({ command: 'setVolume', transport: 'main', volume: 0.5 })).toMatchObject({ command: 'volume', label: 'VOLUME' });
    expect(cueOf({ command: 'gotoNextTrack', transport: 'main' })).toMatchObject({ command: 'gotonexttrack', label: 'NEXT TRACK' });
  });

  it('keeps a track named like a number a name', () => {
    expect(cueOf({ command: 'gototrack', transport: 'main', track: '42' })).toMatchObject({ fields: { track: { name: '42' } } });
  });

  it('reads a section index saved as a number or as decimal text', () => {
    expect(cueOf({ command: 'gotosection', transport: 'main', section: 0 })).toMatchObject({ fields: { section: 0 } });
    expect(cueOf({ command: 'gotosection', transport: 'main', section: ' 2 ' })).toMatchObject({ fields: { section: 2 } });
  });

  it('takes numbers typed as text', () => {
    expect(cueOf({ command: 'gotoframe', transport: 'main', frame: '120' })).toMatchObject({ fields: { frame: 120 } });
  });
});

describe('firing a cue through core', () => {
  const cases: [Record<string, unknown>, TransportCommandFields][] = [
    [{ command: 'play', transport: 'main' }, {}],
    [{ command: 'stop', transport: 'main' }, {}],
    [{ command: 'playsection', transport: 'main' }, {}],
    [{ command: 'playloopsection', transport: 'main' }, {}],
    [{ command: 'returntostart', transport: 'main' }, {}],
    [{ command: 'gotonexttrack', transport: 'main', playmode: 'play' }, { playmode: 'play' }],
    [{ command: 'gotoprevtrack', transport: 'main' }, {}],
    [{ command: 'gotonextsection', transport: 'main' }, {}],
    [{ command: 'gotoprevsection', transport: 'main' }, {}],
    [{ command: 'gototrack', transport: 'main', track: 'Intro' }, { track: { name: 'Intro' } }],
    [{ command: 'gotosection', transport: 'main', section: '2' }, { section: 2 }],
    [{ command: 'gotosection', transport: 'main', section: 0, playmode: 'Play' }, { section: 0, playmode: 'Play' }],
    [{ command: 'gotonote', transport: 'main', note: 'Blackout' }, { note: 'Blackout' }],
    [{ command: 'gototag', transport: 'main', tagType: 'cue', tagValue: '7' }, { tagType: 'cue', tagValue: '7' }],
    [{ command: 'gototime', transport: 'main', time: 12.5 }, { time: 12.5 }],
    [{ command: 'gototimecode', transport: 'main', timecode: '00:01:00:00' }, { timecode: '00:01:00:00' }],
    [{ command: 'gotoframe', transport: 'main', frame: 250 }, { frame: 250 }],
    [{ command: 'volume', transport: 'main', volume: 0.5 }, { volume: 0.5 }],
    [{ command: 'brightness', transport: 'main', brightness: '0' }, { brightness: 0 }],
    [{ command: 'speed', transport: 'main', speed: 0.5 }, { speed: 0.5 }],
  ];


  it('has core toggle engaged at the press, and sends engage or disengage as set', async () => {
    const calls: unknown[][] = [];
    const server = {
      transport: {
        toggleEngaged: (transport: unknown) => (calls.push(['toggle', transport]), Promise.resolve(true)),
        setEngaged: (argument: unknown) => (calls.push(['set', argument]), Promise.resolve()),
      },
    } as unknown as MediaServer;
    await fireCue(server, cueOf({ command: 'engaged', transport: 'main' }));
    await fireCue(server, cueOf({ command: 'engaged', transport: 'stage', engaged: 'disengage' }));
    // A multi-action step of a toggle key does what its state says.
    await fireCue(server, cueOf({ command: 'engaged', transport: 'stage', engaged: 'toggle' }), undefined, 0);
    expect(calls).toEqual([
      ['toggle', { name: 'main' }],
      ['set', { transport: { name: 'stage' }, engaged: false }],
      ['set', { transport: { name: 'stage' }, engaged: true }],
    ]);
  });

  it.each(cases)('%j sends its command with %j', async (settings, fields) => {
    const { calls, server } = recordingServer();
    await fireCue(server, cueOf(settings));
    expect(calls).toEqual([[settings.command, { name: 'main' }, fields]]);
  });

  it('hands core the track of a go to section or note key with its section or note', async () => {
    const { calls, server } = recordingServer();
    await fireCue(server, cueOf({ command: 'gotosection', transport: 'main', track: 'Finale', section: '3', playmode: 'play' }));
    await fireCue(server, cueOf({ command: 'gotonote', transport: 'main', track: 'Finale', note: 'Q1' }));
    expect(calls).toEqual([
      ['gotosection', { name: 'main' }, { section: 3, playmode: 'play', track: { name: 'Finale' } }],
      ['gotonote', { name: 'main' }, { note: 'Q1', track: { name: 'Finale' } }],
    ]);
  });

  it('names the track on the face of a go to section or note key', () => {
    expect(cueOf({ command: 'gotosection', transport: 'main', track: 'Finale', section: '3' })).toMatchObject({ name: 'Finale: Section 3' });
    expect(cueOf({ command: 'gotonote', transport: 'main', track: 'Finale', note: 'Q1' })).toMatchObject({ name: 'Finale: Q1' });
    expect(cueOf({ command: 'gotosection', transport: 'main', section: 3 })).toMatchObject({ name: 'Section 3' });
  });

  it('shows a fixed level as a percentage', () => {
    expect(cueOf({ command: 'brightness', transport: 'main', brightness: 0.25 })).toMatchObject({ label: 'BRIGHTNESS', name: '25 %' });
    expect(cueOf({ command: 'speed', transport: 'main', speed: 0.5 })).toMatchObject({ label: 'SPEED', name: '0.5 x' });
  });
});
