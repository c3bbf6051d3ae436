import type { RunContext } from '../context.js';
import { lateCues } from '../field/late-cues.js';
import { lateLiveAnswers } from '../field/late-live-answers.js';
import { silentSubscriptions } from '../field/silent-subscriptions.js';
import { stalledAnswers } from '../field/stalled-answers.js';
import { FieldTarget } from '../field/target.js';
import { Tally } from '../report/tally.js';

/**
 * The faults venues report from shipping directors, generated from the seed and played on core against one
 * simulated director (reset between them): answers that stall mid-body, live values that stop after some
 * values, cues answered after their deadline, and subscription answers that come late. One row each.
 */
export async function fieldFaults(context: RunContext): Promise<Tally[]> {
  const target = await FieldTarget.start(context.seed, context.dialect);
  const generators = [
    { area: 'core: stalled answers', run: (tally: Tally) => stalledAnswers(target, context.random.fork('stall'), context.budget.stallRounds, tally) },
    { area: 'core: silent subscriptions', run: (tally: Tally) => silentSubscriptions(target, context.random.fork('silence'), context.budget.silenceRounds, tally) },
    { area: 'core: late cues', run: (tally: Tally) => lateCues(target, context.random.fork('late-cues'), context.budget.lateCues, tally) },
    { area: 'core: late live answers', run: (tally: Tally) => lateLiveAnswers(target, context.random.fork('late-live'), context.budget.lateLiveRounds, tally) },
  ];
  const tallies: Tally[] = [];
  try {
    for (const generator of generators) {
      const tally = new Tally(generator.area);
      target.reset();
      await generator.run(tally);
      context.progress(`field: ${tally.area}: ${tally.inputs} inputs`);
      tallies.push(tally.finish());
    }
  } finally {
    await target.close();
  }
  return tallies;
}
