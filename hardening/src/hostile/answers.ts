import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Answers a broken or hostile media server could give: truncated JSON, wrong types, huge or deeply nested
 * payloads, bodies that are not JSON, connections cut half-way, redirects (to loopback only). A client
 * must turn each into a correct result or a clear error, and never crash or hang.
 */
export interface HostileAnswer {
  name: string;
  answer(request: IncomingMessage, response: ServerResponse): void;
  /**
   * False when the answer names machines (director, actors): a client that follows the director would look
   * those names up. Only loopback may be reached, so such answers never go to `status/session`.
   */
  discoverySafe?: false;
}

const ENVELOPE_OK = '{"code":0,"message":"","details":[]}';

function json(status: number, text: string, headers: Record<string, string> = {}): HostileAnswer['answer'] {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(text);
  };
}

function deepArray(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

const HUGE_STRING = 'x'.repeat(8 * 1024 * 1024);

export const HTTP_ANSWERS: readonly HostileAnswer[] = [
  { name: 'truncated JSON', answer: json(200, `{"status":${ENVELOPE_OK},"transports":[{"name":"ma`) },
  { name: 'truncated JSON on an error', answer: json(500, '{"status":{"code":13,"mess') },
  { name: 'not JSON (HTML)', answer: json(200, '<html><body>Gateway says hi</body></html>', { 'content-type': 'text/html' }) },
  { name: 'empty 200', answer: json(200, '') },
  { name: 'empty 500', answer: json(500, '') },
  { name: '204 no content', answer: (_request, response) => { response.writeHead(204); response.end(); } },
  { name: 'null', answer: json(200, 'null') },
  { name: 'a number', answer: json(200, '42') },
  { name: 'a string', answer: json(200, '"ok"') },
  { name: 'an array', answer: json(200, '[1,2,3]') },
  { name: 'status not an object', answer: json(200, '{"status":"fine"}') },
  { name: 'status code as text', answer: json(200, '{"status":{"code":"0","message":""}}') },
  { name: 'refusal with an object message', answer: json(200, '{"status":{"code":5,"message":{"text":"nope"},"details":"x"}}') },
  { name: 'refusal with a huge message', answer: json(200, JSON.stringify({ status: { code: 5, message: 'y'.repeat(2_000_000), details: [] } })) },
  {
    name: 'fields of the wrong type',
    answer: json(200, `{"status":${ENVELOPE_OK},"transports":"main","multitransports":null,"tracks":{},"health":[null,5,{"machine":null}],"notifications":"x","result":7,"session":[],"director":"127.0.0.1","actors":null,"understudies":"x","isRunningSolo":"no"}`),
    discoverySafe: false,
  },
  {
    name: 'lists of wrong items',
    answer: json(200, `{"status":${ENVELOPE_OK},"transports":[null,1,{"name":5,"uid":7}],"multitransports":[{}],"tracks":[null],"health":[{"machine":{},"runningAsMachine":null,"status":{"states":[{"severity":7}]}}],"notifications":[{"notifications":null}],"version":null,"actors":[null],"understudies":[{}]}`),
    discoverySafe: false,
  },
  { name: 'huge payload (8 MiB string)', answer: json(200, `{"status":${ENVELOPE_OK},"transports":[{"name":"${HUGE_STRING}","uid":"1"}],"multitransports":[]}`) },
  { name: 'huge list (200k items)', answer: json(200, `{"status":${ENVELOPE_OK},"transports":[${Array.from({ length: 200_000 }, () => '{"name":"t","uid":"1","playmode":"play","engaged":true,"volume":0.5,"brightness":1}').join(',')}],"multitransports":[]}`) },
  { name: 'deep nesting (20k levels)', answer: json(200, `{"status":${ENVELOPE_OK},"transports":${deepArray(20_000)}}`) },
  { name: 'deep nesting on an error', answer: json(500, deepArray(20_000)) },
  { name: '__proto__ in the answer', answer: json(200, `{"status":${ENVELOPE_OK},"__proto__":{"hardeningPolluted":true},"transports":[{"__proto__":{"name":"x"},"constructor":{"prototype":{"hardeningPolluted":true}}}],"multitransports":[]}`) },
  { name: '401 with a token-looking body', answer: json(401, '{"message":"login required","token":"not-a-real-token"}') },
  { name: '503 with a retry-after', answer: json(503, '{"status":{"code":14,"message":"busy"}}', { 'retry-after': '1' }) },
  { name: '302 to a closed loopback port', answer: (_request, response) => { response.writeHead(302, { location: 'http://127.0.0.1:1/' }); response.end(); } },
  {
    name: 'connection cut after the headers',
    answer: (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"status":');
      setTimeout(() => response.socket?.destroy(), 20);
    },
  },
  { name: 'connection cut before any answer', answer: (request) => request.socket.destroy() },
  {
    name: 'content-length shorter than the body',
    answer: (_request, response) => {
      response.socket?.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5\r\n\r\n{"status":${ENVELOPE_OK}}`);
      response.socket?.destroy();
    },
  },
  {
    name: 'not HTTP at all',
    answer: (_request, response) => {
      response.socket?.write('SSH-2.0-OpenSSH_9.6\r\n\r\n');
      response.socket?.destroy();
    },
  },
];

/** Frames a broken live-update server could send; the client must ignore or report each and stay up. */
export const LIVE_FRAMES: readonly (string | Buffer)[] = [
  'not json',
  '{"subscriptions":[{"id":0,',
  '[]',
  'null',
  '"text"',
  '42',
  '{}',
  '{"subscriptions":"x"}',
  '{"subscriptions":[null]}',
  '{"subscriptions":[5,"a",[]]}',
  '{"subscriptions":[{}]}',
  '{"subscriptions":[{"id":"a","objectPath":5,"propertyPath":null}]}',
  '{"valuesChanged":"x"}',
  '{"valuesChanged":[null]}',
  '{"valuesChanged":[7,"a",[]]}',
  '{"valuesChanged":[{"id":null}]}',
  '{"valuesChanged":[{"id":0,"value":{"errorType":5,"message":null}}]}',
  '{"valuesChanged":[{"id":0,"value":{"errorType":"E","message":"bad"}}]}',
  '{"valuesChanged":[{"id":0,"value":"fast"}]}',
  '{"valuesChanged":[{"id":0,"value":{"nested":{"deep":[1,2,3]}}}]}',
  '{"valuesChanged":[{"id":0,"value":1e308}]}',
  '{"error":{}}',
  '{"error":null}',
  '{"error":"Unable to subscribe - Unable to find object"}',
  '{"error":"Invalid JSON"}',
  '{"__proto__":{"hardeningPolluted":true},"valuesChanged":[{"id":0,"value":1}]}',
  `{"valuesChanged":[{"id":0,"value":"${'z'.repeat(4 * 1024 * 1024)}"}]}`,
  `{"valuesChanged":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
  Buffer.from([0xff, 0x00, 0xfe, 0x7b]),
];
