import { reasonOf } from '@stagelink/core';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LogSink } from './log.js';
import type { Answer } from './routes/route.js';
import { bytesBeforeStall, type AnswerStall } from './stalled-answers.js';

/** Bodies above this are refused with 413: no endpoint of the spec needs more. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface IncomingJson {
  method: string;
  url: URL;
  /** The raw body; the handler decides whether and how to parse it. */
  text: string;
  /** The Authorization header, for the management controller's accounts. */
  authorization?: string;
}

/** An answer as the server sends it: `stall` (the `stallBody` fault) stops its body part way. */
export interface HttpAnswer extends Answer {
  stall?: AnswerStall;
}

export type JsonHandler = (request: IncomingJson) => Promise<HttpAnswer>;

export interface RunningHttpServer {
  /** The node:http server: attach an `upgrade` listener to it for the live-update WebSocket. */
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  /** Stops listening and destroys every open socket, upgraded ones included. Safe to call more than once. */
  close(): Promise<void>;
}

class BodyTooLarge extends Error {}

/** A node:http server that answers JSON; every request goes through `handle`, which never has to catch. */
export async function startHttpServer(options: { host: string; port: number; handle: JsonHandler; log: LogSink }): Promise<RunningHttpServer> {
  const sockets = new Set<Socket>();
  let url = '';
  const server = createServer((request, response) => void respond(request, response, { ...options, url }));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server, options.host, options.port);
  const { port } = server.address() as AddressInfo;
  url = `http://${urlHost(options.host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    url,
    close: () => {
      closing ??= new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

/**
 * Answers one request and logs it; `url` is this listener's, so a request line says which machine (or which
 * machine's management controller) the request reached.
 */
async function respond(request: IncomingMessage, response: ServerResponse, options: { handle: JsonHandler; log: LogSink; url: string }): Promise<void> {
  const started = performance.now();
  const method = request.method ?? 'GET';
  let answer: HttpAnswer;
  try {
    const text = await readBody(request);
    const url = requestUrl(request.url ?? '/');
    answer = url ? await options.handle({ method, url, text, authorization: request.headers.authorization }) : { status: 400, body: { message: `Cannot read the request target "${request.url}".` } };
  } catch (error) {
    answer = lastResort(error);
    // A socket destroyed by close() is not an error worth a line.
    if (!(error instanceof BodyTooLarge) && !response.destroyed) options.log({ event: 'error', method, path: request.url, message: String(error) });
  }
  const ms = Math.round(performance.now() - started);
  // A client that gave up before the answer (a late cue) still made the request, and it took effect: log it.
  if (response.destroyed) {
    options.log({ event: 'request', method, path: request.url, status: answer.status, ms, server: options.url, clientGone: true });
    return;
  }
  const stalledAfterBytes = send(response, answer);
  const stalled = stalledAfterBytes === undefined ? {} : { stalledAfterBytes };
  options.log({ event: 'request', method, path: request.url, status: answer.status, ms, server: options.url, ...stalled });
}

/**
 * The request target as a URL. An origin-form target is always a path: `//host/api/smc` is the path
 * `//host/api/smc`, not a URL of another host. Absolute-form targets (`http://host/path`) are read as URLs.
 */
function requestUrl(target: string): URL | undefined {
  try {
    return target.startsWith('/') ? new URL(`http://simulator${target}`) : new URL(target);
  } catch {
    return undefined;
  }
}

/** What is left when the handler itself failed: the simulator answers, it never crashes. */
function lastResort(error: unknown): Answer {
  if (error instanceof BodyTooLarge) return { status: 413, body: { message: `The request body is larger than ${MAX_BODY_BYTES} bytes.` } };
  return { status: 500, body: { message: `Internal simulator error: ${reasonOf(error)}` } };
}

/**
 * JSON, unless the answer says it is plain text (a string body). A stalled answer announces its whole length,
 * sends part of its body and is never ended: the socket stays open until the client or `close()` ends it.
 * Answers how many bytes a stalled answer sent.
 */
function send(response: ServerResponse, answer: HttpAnswer): number | undefined {
  const plain = typeof answer.body === 'string' && answer.headers?.['content-type']?.startsWith('text/plain') === true;
  const body = Buffer.from(plain ? String(answer.body) : JSON.stringify(answer.body), 'utf8');
  response.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    ...answer.headers,
  });
  if (!answer.stall) {
    response.end(body);
    return undefined;
  }
  const sent = bytesBeforeStall(answer.stall, body.length);
  if (sent > 0) response.write(body.subarray(0, sent));
  else response.flushHeaders();
  return sent;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => (size > MAX_BODY_BYTES ? reject(new BodyTooLarge()) : resolve(Buffer.concat(chunks).toString('utf8'))));
    request.on('error', reject);
  });
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
