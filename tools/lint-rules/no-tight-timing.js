/**
 * Tests keep behaviour, benchmarks keep speed: a test that times itself fails whenever the machine is busy. This
 * rule reports, in test files, a wall-clock bound under MIN_BOUND_MS: an `expect(<time>).toBeLessThan(N)` whose
 * subject reads a clock or names a duration; a timeout under the bound given to a wait (`vi.waitFor`,
 * `expect.poll`, `eventually`, `ioUntil`, or any `waitFor...` helper, as a `timeout` option or as the first number
 * after what it waits for); a test's own timeout under it; and a race against a timer under it
 * (`Promise.race([work, setTimeout/delay(N)])`, also through a helper that races its argument against a timer,
 * called with N). Latency targets belong in `pnpm bench`. A count or a size bound
 * (`expect(writes.length).toBeLessThan(3)`) is not a time and is left alone; nor is a client's `timeoutMs`, which
 * a test of that timeout needs short.
 */
const MIN_BOUND_MS = 2000;
const UPPER_BOUNDS = new Set(['toBeLessThan', 'toBeLessThanOrEqual']);
const WAITS = new Set(['waitFor', 'poll', 'eventually', 'ioUntil']);
const TESTS = new Set(['it', 'test']);
/** Calls that wait: their delay is their first argument, or the second after a callback (`setTimeout(fn, ms)`). */
const TIMERS = new Set(['setTimeout', 'delay', 'sleep', 'wait']);
/** A subject that reads a clock or names a time span. */
const TIMED_SUBJECT = /\b(?:Date|performance)\.now\(\)|\bnow\(\)|\b\w*(?:elapsed|latency|duration|took)\w*\b|\w+Ms\b|\w+At\b/i;

function numberOf(node) {
  if (node?.type === 'Literal' && typeof node.value === 'number') return node.value;
  return undefined;
}

function calleeName(call) {
  const callee = call.callee;
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

function isWait(name) {
  return WAITS.has(name) || /^waitFor[A-Z]?/.test(name);
}

/** The `expect(...)` call at the root of a matcher chain such as `expect(x).not.toBeLessThan`. */
function expectCallOf(node) {
  let current = node;
  while (current?.type === 'MemberExpression') current = current.object;
  return current?.type === 'CallExpression' && calleeName(current) === 'expect' ? current : undefined;
}

function timeoutProperty(node) {
  if (node?.type !== 'ObjectExpression') return undefined;
  return node.properties.find((p) => p.type === 'Property' && p.key.type === 'Identifier' && p.key.name === 'timeout')?.value;
}

/** The delay argument of a timer call (`setTimeout(fn, ms)`, `setTimeout(ms)` from timers/promises, `delay(ms)`). */
function timerDelayOf(call) {
  if (call.type !== 'CallExpression' || !TIMERS.has(calleeName(call) ?? '')) return undefined;
  const [first, second] = call.arguments;
  const callback = first && (first.type === 'ArrowFunctionExpression' || first.type === 'FunctionExpression' || first.type === 'Identifier') && second !== undefined;
  return callback ? second : first;
}

function isPromiseRace(call) {
  const callee = call.callee;
  return (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'Identifier' &&
    callee.object.name === 'Promise' &&
    callee.property.type === 'Identifier' &&
    callee.property.name === 'race'
  );
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'No wall-clock bound under 2 s in a test: measure latency in `pnpm bench`.' },
    messages: {
      bound: 'A test must not assert a wall-clock bound under {{min}} ms (this one is {{value}} ms): keep the behaviour with a generous bound and measure the latency in a `pnpm bench` row.',
    },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode;
    const keys = source.visitorKeys;
    const report = (node, value) => context.report({ node, messageId: 'bound', data: { min: String(MIN_BOUND_MS), value: String(value) } });
    const checkBound = (node) => {
      const value = numberOf(node);
      if (value !== undefined && value < MIN_BOUND_MS) report(node, value);
    };
    /** Every timer call under `node`. */
    const timersUnder = (node) => {
      const found = [];
      const visit = (current) => {
        if (!current || typeof current.type !== 'string') return;
        if (current.type === 'CallExpression' && timerDelayOf(current) !== undefined) found.push(current);
        for (const key of keys[current.type] ?? []) {
          const child = current[key];
          if (Array.isArray(child)) child.forEach(visit);
          else visit(child);
        }
      };
      visit(node);
      return found;
    };
    /** Helpers that race something against a timer whose delay is one of their parameters: name → index. */
    const racingHelpers = new Map();
    const helperCalls = [];
    const noteHelper = (name, fn) => {
      if (!name || !fn || !fn.params) return;
      const params = fn.params.map((param) => (param.type === 'Identifier' ? param.name : undefined));
      const races = [];
      const visit = (current) => {
        if (!current || typeof current.type !== 'string') return;
        if (current.type === 'CallExpression' && isPromiseRace(current)) races.push(current);
        for (const key of keys[current.type] ?? []) {
          const child = current[key];
          if (Array.isArray(child)) child.forEach(visit);
          else visit(child);
        }
      };
      visit(fn.body);
      for (const race of races) {
        for (const timer of timersUnder(race)) {
          const delay = timerDelayOf(timer);
          const index = delay?.type === 'Identifier' ? params.indexOf(delay.name) : -1;
          if (index >= 0) racingHelpers.set(name, index);
        }
      }
    };
    return {
      VariableDeclarator(node) {
        if (node.id.type === 'Identifier' && (node.init?.type === 'ArrowFunctionExpression' || node.init?.type === 'FunctionExpression')) noteHelper(node.id.name, node.init);
      },
      FunctionDeclaration(node) {
        noteHelper(node.id?.name, node);
      },
      CallExpression(call) {
        const name = calleeName(call);
        if (!name) return;
        if (call.callee.type === 'Identifier') helperCalls.push(call);
        if (UPPER_BOUNDS.has(name) && call.callee.type === 'MemberExpression') {
          const subject = expectCallOf(call.callee.object)?.arguments[0];
          if (subject && TIMED_SUBJECT.test(source.getText(subject))) checkBound(call.arguments[0]);
          return;
        }
        if (isWait(name)) {
          for (const argument of call.arguments) checkBound(timeoutProperty(argument));
          // A wait's timeout as an argument is the first number after what it waits for (later ones, such as
          // where in a message log to start, are not times).
          checkBound(call.arguments.slice(1).find((argument) => numberOf(argument) !== undefined));
          return;
        }
        if (isPromiseRace(call)) {
          for (const timer of timersUnder(call)) checkBound(timerDelayOf(timer));
          return;
        }
        if (TESTS.has(name) && call.callee.type === 'Identifier') {
          const last = call.arguments[2];
          checkBound(timeoutProperty(last) ?? last);
        }
      },
      'Program:exit'() {
        for (const call of helperCalls) {
          const index = racingHelpers.get(call.callee.name);
          if (index !== undefined) checkBound(call.arguments[index]);
        }
      },
    };
  },
};
