/**
 * Tests keep behaviour, benchmarks keep speed: a test that times itself fails whenever the machine is busy. This
 * rule reports, in test files, a wall-clock bound under MIN_BOUND_MS: an `expect(<time>).toBeLessThan(N)` whose
 * subject reads a clock or names a duration, a `timeout` under the bound given to a wait (`vi.waitFor`,
 * `expect.poll`, `eventually`), and a test's own timeout under it. Latency targets belong in `pnpm bench`.
 */
const MIN_BOUND_MS = 2000;
const UPPER_BOUNDS = new Set(['toBeLessThan', 'toBeLessThanOrEqual']);
const WAITS = new Set(['waitFor', 'poll', 'eventually', 'ioUntil']);
const TESTS = new Set(['it', 'test']);
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

/** The `expect(...)` call at the root of a matcher chain such as `expect(x).not.toBeLessThan`. */
function expectCallOf(node) {
  let current = node;
  while (current?.type === 'MemberExpression') current = current.object;
  return current?.type === 'CallExpression' && calleeName(current) === 'expect' ? current : undefined;
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
    const report = (node, value) => context.report({ node, messageId: 'bound', data: { min: String(MIN_BOUND_MS), value: String(value) } });
    const checkBound = (node) => {
      const value = numberOf(node);
      if (value !== undefined && value < MIN_BOUND_MS) report(node, value);
    };
    return {
      CallExpression(call) {
        const name = calleeName(call);
        if (name && UPPER_BOUNDS.has(name) && call.callee.type === 'MemberExpression') {
          const subject = expectCallOf(call.callee.object)?.arguments[0];
          if (subject && TIMED_SUBJECT.test(source.getText(subject))) checkBound(call.arguments[0]);
          return;
        }
        if (name && WAITS.has(name)) {
          for (const argument of call.arguments) {
            if (argument.type === 'ObjectExpression') {
              const timeout = argument.properties.find((p) => p.type === 'Property' && p.key.type === 'Identifier' && p.key.name === 'timeout');
              if (timeout) checkBound(timeout.value);
            }
          }
          if (name === 'eventually' || name === 'ioUntil') checkBound(call.arguments[2]);
          return;
        }
        if (name && TESTS.has(calleeName(call) ?? '') && call.callee.type === 'Identifier') {
          const last = call.arguments[2];
          if (last?.type === 'ObjectExpression') {
            const timeout = last.properties.find((p) => p.type === 'Property' && p.key.type === 'Identifier' && p.key.name === 'timeout');
            if (timeout) checkBound(timeout.value);
          } else {
            checkBound(last);
          }
        }
      },
    };
  },
};
