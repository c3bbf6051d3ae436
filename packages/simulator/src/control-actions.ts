import type { BodyField, Ref } from '@stagelink/core';
import type { ControlPanel } from './control.js';
import { MAX_LATENCY_MS, optionalWholeNumber, requestPath, wholeNumber } from './control-params.js';
import type { Faults } from './faults.js';
import { BadRequest } from './http-errors.js';
import { MAX_BODY_BYTES } from './http-server.js';
import type { JsonFields } from './routes/json-fields.js';
import { HARDWARE_FAULTS, type HardwareFault } from './state/hardware/machine-sensors.js';
import type { LaterCommand } from './state/later-commands.js';
import type { SessionState } from './state/session-state.js';

export interface ControlTarget {
  readonly faults: Faults;
  readonly state: SessionState;
  /** Rebuilds the session from the scenario and seed, logs out and clears every fault. */
  reset(): void;
}

/**
 * The media-server port's own actions: status, latency, failNext, login, reset, projectOption, selectTransport,
 * listActiveTransports, renameTransport, freezePlayhead, jumpPlayhead, machineFps, crashWorkload, removeLayer, describeCommand, leaveSession,
 * stallBody and slowAnswer.
 */
export function registerCoreActions(panel: ControlPanel, target: ControlTarget): void {
  panel.register('status', () => undefined); // changes nothing: answers the summary
  panel.register('latency', (params) => {
    const jitterMs = optionalWholeNumber(params, 'jitterMs', 0, MAX_LATENCY_MS, 0);
    target.faults.setLatency(wholeNumber(params, 'ms', 0, MAX_LATENCY_MS), jitterMs);
  });
  panel.register('failNext', (params) => {
    const status = wholeNumber(params, 'status', 400, 599);
    const count = optionalWholeNumber(params, 'count', 0, 1_000_000, 1);
    target.faults.failNextRequests(status, count);
  });
  // The documents do not show how to log in; on an SMC with accounts, logging in also re-creates a cleared account.
  panel.register('login', (params) => {
    target.state.hardware.loggedIn = params.boolean('loggedIn');
    if (target.state.hardware.loggedIn) target.state.hardware.accountsErased = false;
  });
  panel.register('reset', () => target.reset());
  // Project options are set in the project, not through the API (`enableTransportSpeedControl`).
  panel.register('projectOption', (params) => {
    const name = params.text('name');
    if (params.boolean('on')) target.state.projectOptions.add(name);
    else target.state.projectOptions.delete(name);
  });
  // The API has no call that selects the active transport; tests and demos pick it here.
  panel.register('selectTransport', (params) => target.state.transports.selectActive(params.ref('transport')));
  panel.register('listActiveTransports', (params) => target.state.transports.listActive(params.refs('transports')));
  // Projects name transports as their operators like, with brackets, dots and slashes (`Stage (L)`).
  panel.register('renameTransport', (params) => target.state.transports.rename(transportOf(params), params.text('name')));
  // What no API command does: a render that sticks while the transport still plays, an operator moving the
  // playhead on the Designer timeline.
  panel.register('freezePlayhead', (params) => target.state.transports.freezePlayhead(transportOf(params), params.boolean('on')));
  panel.register('jumpPlayhead', (params) => {
    const track = params.raw('track') === undefined ? undefined : refOrName(params, 'track');
    target.state.transports.jumpPlayhead(transportOf(params), params.number('time'), track);
  });
  // Faults venues report: large answers that stop after their headers (an MTU mismatch), commands that answer late.
  panel.register('stallBody', (params) => {
    const path = requestPath(params, 'path');
    const on = params.boolean('on');
    const afterBytes = params.raw('afterBytes') === undefined ? undefined : wholeNumber(params, 'afterBytes', 0, MAX_BODY_BYTES);
    target.faults.stalledAnswers.set(path, on, afterBytes);
  });
  // Every simulated machine's FPS hovers near 59.94: a test fixes one machine's to tell which machine a reading is from.
  panel.register('machineFps', (params) => {
    const machine = target.state.machines.byHostname(params.text('hostname'));
    if (!machine) throw new BadRequest(`hostname must name a machine of the session: ${target.state.machines.hostnames().join(', ')}.`);
    const fps = params.raw('fps') === undefined ? undefined : params.number('fps');
    if (fps !== undefined && !(Number.isFinite(fps) && fps > 0)) throw new BadRequest(`fps must be a number above 0 (got ${fps}).`);
    if (fps === undefined) target.state.fixedFps.delete(machine.hostname.toLowerCase());
    else target.state.fixedFps.set(machine.hostname.toLowerCase(), fps);
  });
  // An operator taking a machine out of the session while the show runs (only a free understudy, here).
  // A RenderStream workload that crashes mid-show (an Unreal or Notch process dying); `restartlayers` brings it back.
  panel.register('crashWorkload', (params) => {
    const message = params.optionalText('message');
    target.state.renderStream.crash(params.ref('layer'), message);
  });
  // A layer deleted from the project in rehearsal: the director no longer lists it.
  panel.register('removeLayer', (params) => target.state.renderStream.remove(params.ref('layer')));
  // A build newer than stagelink's catalogue: its description lists one more command, which it answers with success.
  panel.register('describeCommand', (params) => target.state.laterCommands.add(laterCommandOf(params)));
  panel.register('leaveSession', (params) => target.state.machines.removeUnderstudy(params.text('hostname')));
  // What a machine's management controller reports when its hardware fails: a fan that stops, a CPU running hot,
  // a main power fault, an output card that loses its signal.
  panel.register('hardwareFault', (params) => {
    const hostname = machineOf(target.state, params);
    const fault = params.text('fault');
    if (!(HARDWARE_FAULTS as readonly string[]).includes(fault)) throw new BadRequest(`fault must be one of ${HARDWARE_FAULTS.join(', ')} (got "${fault}").`);
    const { faults } = target.state.hardware.sensorsOf(hostname);
    if (params.boolean('on')) faults.add(fault as HardwareFault);
    else faults.delete(fault as HardwareFault);
  });
  // A management controller that stops answering (hung firmware, a management network cut): requests are held unanswered.
  panel.register('smcSilent', (params) => target.state.hardware.silence(machineOf(target.state, params), params.boolean('on')));
  panel.register('slowAnswer', (params) => {
    const ms = wholeNumber(params, 'ms', 0, MAX_LATENCY_MS);
    const path = params.raw('path') === undefined ? undefined : requestPath(params, 'path');
    target.faults.slowAnswers.set(ms, path);
  });
}

/** `hostname` as the session spells it (any case); BadRequest naming the machines when it names none. */
function machineOf(state: SessionState, params: JsonFields): string {
  const machine = state.machines.byHostname(params.text('hostname'));
  if (!machine) throw new BadRequest(`hostname must name a machine of the session: ${state.machines.hostnames().join(', ')}.`);
  return machine.hostname;
}

/** `transport` as a Ref, or as a name alone: `"main"` reads as `{"name": "main"}`. */
function transportOf(params: JsonFields): Ref {
  return refOrName(params, 'transport');
}

function refOrName(params: JsonFields, key: string): Ref {
  const value = params.raw(key);
  return typeof value === 'string' && value !== '' ? { name: value } : params.ref(key);
}

const BODY_FIELDS: readonly BodyField[] = ['Ref', 'Ref[]', 'string', 'boolean', 'object[]'];

/** `{ path: 'renderstream/layerhealth', method?: 'POST', summary?, body?: { field: 'Ref[]' } }`. */
function laterCommandOf(params: JsonFields): LaterCommand {
  const method = (params.optionalText('method') ?? 'POST').toUpperCase();
  if (method !== 'GET' && method !== 'POST') throw new BadRequest(`method must be GET or POST (got "${method}").`);
  const short = params.text('path').replace(/^\/*(api\/session\/)?/, '');
  if (!/^[\w/.-]+$/.test(short)) throw new BadRequest(`path must be a command's path such as renderstream/layerhealth (got "${short}").`);
  const fields = params.raw('body') === undefined ? undefined : params.object('body');
  const body = fields && Object.fromEntries(fields.entries().map(([name, type]) => [name, bodyFieldOf(name, type)]));
  return { method, path: `/api/session/${short}`, summary: params.optionalText('summary') ?? short, ...(body ? { body } : {}) };
}

function bodyFieldOf(name: string, type: unknown): BodyField {
  if (!(BODY_FIELDS as readonly unknown[]).includes(type)) throw new BadRequest(`body.${name} must be one of ${BODY_FIELDS.join(', ')} (got ${JSON.stringify(type)}).`);
  return type as BodyField;
}
