/**
 * The JavaScript of the harness's function nodes. They run inside Node-RED's function sandbox, so they are
 * plain source text. None of them touches the node under test; they only carry inputs in and outcomes out.
 */

/**
 * Turns the posted `{fields}` into msg properties, as a function node upstream could set them: own data
 * properties (`__proto__` included), and the markers of values JSON cannot carry turned into those values.
 */
export const UNPACK = `
const special = (kind) => {
  switch (kind) {
    case 'NaN': return NaN;
    case 'Infinity': return Infinity;
    case '-Infinity': return -Infinity;
    case '-0': return -0;
    case 'undefined': return undefined;
    case 'bigint': return BigInt('18446744073709551615');
    case 'date': return new Date(0);
    case 'buffer': return Buffer.from('stagelink');
    case 'circular': { const o = { name: 'main' }; o.self = o; return o; }
    case 'function': return function hardening() { return 'main'; };
    default: return kind;
  }
};
const decode = (value) => {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$hardening') return special(value.$hardening);
  const out = {};
  for (const key of keys) Object.defineProperty(out, key, { value: decode(value[key]), enumerable: true, writable: true, configurable: true });
  return out;
};
const fields = (msg.payload && msg.payload.fields) || {};
delete msg.payload;
for (const key of Object.keys(fields)) {
  if (key === 'req' || key === 'res' || key === '_msgid') continue;
  Object.defineProperty(msg, key, { value: decode(fields[key]), enumerable: true, writable: true, configurable: true });
}
// Sent, not returned: the function node awaits a returned value, and a msg with a \`then\` function is a thenable.
node.send(msg);
return null;
`;

/** A fresh msg for the http response node: generated keys such as statusCode or headers must not reach it. */
const ANSWER = `
const answer = (payload) => {
  if (!msg.res || !msg.res._res || msg.res._res.headersSent) return null;
  return { _msgid: msg._msgid, req: msg.req, res: msg.res, payload };
};
`;

/** Output of the node under test: the command was acknowledged. */
export const ACK = `${ANSWER}
return answer({ outcome: 'ack' });
`;

/** Catch node output: the command failed; answered if the request still waits, else kept for /observed. */
export const FAILED = `${ANSWER}
const error = msg.error || {};
const record = {
  outcome: 'error',
  message: String(error.message),
  source: error.source ? error.source.type : undefined,
  sourceId: error.source ? error.source.id : undefined,
};
const answered = answer(record);
if (answered) return answered;
const errors = global.get('hardeningErrors') || [];
if (errors.length < 5000) errors.push(record);
global.set('hardeningErrors', errors);
return null;
`;

/**
 * Both outputs of a liveupdate-in node: counts values and records connection states (`"online"` / `"offline"`, the
 * second output) per node, with the time of the last value. The probes watch numbers, so a word is a state.
 */
export function liveRecorder(probeId: string): string {
  return `
const live = global.get('hardeningLive') || {};
const entry = live[${JSON.stringify(probeId)}] || { values: 0, statuses: [], lastValueAt: 0, valueTimes: [], offline: 0 };
if (msg.payload === 'online' || msg.payload === 'offline') {
  entry.statuses.push(msg.payload);
  if (msg.payload === 'offline') entry.offline += 1;
} else {
  entry.values += 1;
  entry.lastValueAt = Date.now();
  entry.valueTimes.push(entry.lastValueAt);
}
if (entry.statuses.length > 50) entry.statuses.splice(0, entry.statuses.length - 50);
if (entry.valueTimes.length > 200) entry.valueTimes.splice(0, entry.valueTimes.length - 200);
live[${JSON.stringify(probeId)}] = entry;
global.set('hardeningLive', live);
return null;
`;
}

/** Status node output: keeps the status every node showed (bounded), for the secrets check and live probes. */
export const STATUS_RECORDER = `
const statuses = global.get('hardeningStatuses') || [];
const status = msg.status || {};
statuses.push({ id: status.source ? status.source.id : undefined, text: status.text === undefined ? '' : String(status.text), fill: status.fill, shape: status.shape });
if (statuses.length > 5000) statuses.splice(0, statuses.length - 5000);
global.set('hardeningStatuses', statuses);
return null;
`;

/** Answers which generation of the flow runs: a deploy has taken effect when this says the new number. */
export function readyAnswer(generation: number): string {
  return `msg.payload = { generation: ${generation} };\nreturn msg;`;
}

/**
 * What the harness has seen so far, and whether Object.prototype of the runtime (the realm the msg was made
 * in, not the sandbox's) gained a key from a generated input.
 */
export const OBSERVED = `
const runtimePrototype = Object.getPrototypeOf(msg);
const polluted = ['hardeningPolluted', 'polluted'].filter((key) => Object.prototype.hasOwnProperty.call(runtimePrototype, key) || ({})[key] !== undefined);
msg.payload = {
  live: global.get('hardeningLive') || {},
  errors: global.get('hardeningErrors') || [],
  statuses: global.get('hardeningStatuses') || [],
  polluted,
};
if (msg.req.query.reset === '1') {
  global.set('hardeningLive', {});
  global.set('hardeningErrors', []);
  global.set('hardeningStatuses', []);
}
return msg;
`;

/** Collects garbage (twice: finalizers free more on the second pass), so memory read from outside is settled. */
export const COLLECT_GARBAGE = `
const collect = global.get('hardeningCollectGarbage');
msg.payload = { heapUsed: typeof collect === 'function' ? collect() : undefined };
return msg;
`;
