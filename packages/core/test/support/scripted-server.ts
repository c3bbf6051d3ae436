import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface ReceivedRequest {
  method: string;
  url: string;
  body: string;
  /** The Authorization header as sent, when there was one. */
  authorization?: string;
}

export type Reply = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/**
 * A real HTTP server on loopback whose answers are scripted per request, counting what reached it and the
 * TCP connections it took. For fault behaviour that the simulator would make awkward to stage (resets,
 * silence). Listens on a free port unless given one.
 */
export async function startScriptedServer(replies: Reply[], fallback: Reply = json(200, { status: ok }), port = 0) {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', body, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      const reply = replies[received.length - 1] ?? fallback;
      reply(req, res, body);
    });
  });
  server.on('connection', () => connections++);
  const { url, close } = await listenOnLoopback(server, port);
  return {
    url,
    received,
    get connections() {
      return connections;
    },
    close,
  };
}

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedServer>>;

export const ok = { code: 0, message: '', details: [] };

export function json(status: number, body: unknown): Reply {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}

/** Never answers: the request hangs until the client gives up. */
export const silence: Reply = () => undefined;

/** Drops the connection after reading the request: the client cannot know whether it was acted on. */
export const reset: Reply = (req) => req.socket.destroy();

/**
 * Sends the headers and the first part of a JSON answer, then nothing more: what a show network with mismatched
 * MTU does to answers larger than its smaller frame.
 */
export const stallAfterHeaders: Reply = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4000' });
  res.write('{"status":{"code":0,"message":"","details":[]},"transports":[');
};
