/**
 * What each feedback type reads, as a list of parts per type: after a change, only the types whose parts changed
 * are checked again (an FPS value every 100 ms per machine then checks the FPS tiles of that machine's type, not
 * every button of the desk). A part is a value or the object a read answered (each answer is a new object), so
 * comparing parts one by one tells whether what the type shows may have changed.
 */
import { freshnessOfPoll } from '../show/freshness.js';
import { playStateKey } from '../show/play-state.js';
import type { Show } from '../show/show.js';
import type { FeedbackId } from './feedbacks.js';
import type { LinkWord } from './variables.js';

export type FeedbackInputs = Record<FeedbackId, readonly unknown[]>;

export function feedbackInputs(show: Show, link: LinkWord, armedVersion: number, frameRate: number): FeedbackInputs {
  const machines = [...show.machines.values()];
  const transports = [...show.transports.values()];
  const play = playStateKey(show);
  const power = [...show.power.values()].map((watch) => watch.status.state);
  return {
    playing: [play],
    playmode: [play],
    health: [show.health.state, ...machines.map((machine) => `${machine.id}=${machine.hostname}`)],
    fps_alert: machines.map((machine) => `${machine.id}=${machine.alert(frameRate) ?? ''}`),
    link: [link],
    stale: [
      freshnessOfPoll(show.session.state),
      freshnessOfPoll(show.health.state),
      freshnessOfPoll(show.transportList.state),
      ...machines.map((machine) => `${machine.id}=${machine.fps.freshness}`),
      ...transports.map((transport) => `${transport.id}=${transport.levels.volume.freshness}:${transport.levels.brightness.freshness}`),
      `layers=${show.renderStream.layers.length}:${show.renderStream.freshness}`,
    ],
    armed: [armedVersion],
    takeover: machines.map((machine) => `${machine.id}=${String(machine.takeover?.value)}`),
    power,
    power_fault: power,
    hardware_fault: [...show.hardware.values()].map((watch) => watch.snapshot),
    last_cue_failed: [show.cueCount],
    layer_state: [show.renderStream.snapshot],
    layer_workload: [show.renderStream.snapshot],
  };
}

/** The feedback types whose parts differ between two looks; every type when there was no look before. */
export function changedFeedbacks(before: Partial<FeedbackInputs>, now: FeedbackInputs): FeedbackId[] {
  return (Object.keys(now) as FeedbackId[]).filter((id) => {
    const was = before[id];
    const is = now[id];
    return was === undefined || was.length !== is.length || is.some((part, index) => !Object.is(part, was[index]));
  });
}
