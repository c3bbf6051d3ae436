/**
 * What became of the last cue, on the surface (both dialects): per transport `transport_<id>_last_result`, the
 * module's `last_error`, and the `last_cue_failed` feedback.
 */
import { variableIdOf } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { startModule, startSim, untilReady, withReadyModule } from './session.js';

describe('the last cue', () => {
  withReadyModule('shows ok after a cue that went through, failed with the reason after one the server refused, and ok again', async ({ sim, host }) => {
    const name = sim.state.transports.list()[0]?.name ?? '';
    const result = `transport_${variableIdOf(name)}_last_result`;
    const failed = host.placeFeedback('last_cue_failed', { transport: name });
    const anyFailed = host.placeFeedback('last_cue_failed', { transport: '' });

    await host.runAction('play', { transport: name });
    await host.waitFor(() => host.variables.get(result) === 'ok', `${result} ok`);
    expect(host.variables.get('last_error')).toBe('');
    await host.waitFor(() => host.feedback(failed) === false && host.feedback(anyFailed) === false, 'last cue feedbacks off');

    // A track the project does not have: the director refuses the cue.
    const refused = await host.executeAction('gototrack', { transport: name, track: 'no such track', playmode: 'Play' });

    expect(refused.success).toBe(false);
    await host.waitFor(() => host.variables.get(result) === 'failed', `${result} failed`);
    expect(host.variables.get('last_error')).toMatch(/^Transport: .* failed: /);
    await host.waitFor(() => host.feedback(failed) === true && host.feedback(anyFailed) === true, 'last cue feedbacks on');

    await host.runAction('stop', { transport: name });
    await host.waitFor(() => host.variables.get(result) === 'ok', `${result} ok again`);
    await host.waitFor(() => host.feedback(failed) === false && host.variables.get('last_error') === '', 'cleared');
  });
});

describe('the last cue while the server is gone', () => {
  let sim: Simulator | undefined;
  let host: CompanionHost | undefined;

  afterEach(async () => {
    await host?.destroy();
    await sim?.close();
  });

  it('shows refused: link down for a cue not sent to a server known not to answer', async () => {
    sim = await startSim();
    const module = (host = await startModule(sim));
    await untilReady(module);
    const name = sim.state.transports.list()[0]?.name ?? '';
    const result = `transport_${variableIdOf(name)}_last_result`;
    const failed = module.placeFeedback('last_cue_failed', { transport: name });

    await sim.close();
    sim = undefined;
    await module.waitFor(() => module.variables.get('link') === 'no link', 'no link');
    const refused = await module.executeAction('play', { transport: name });

    expect(refused.success).toBe(false);
    await module.waitFor(() => module.variables.get(result) === 'refused: link down', `${result} refused: link down`);
    expect(module.variables.get('last_error')).toMatch(/not sent/);
    await module.waitFor(() => module.feedback(failed) === true, 'last cue feedback on');
  });
});
