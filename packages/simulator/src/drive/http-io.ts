import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiResponse } from './api-errors.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** The request body as text, or undefined when it is larger than the service accepts (it is still drained). */
export async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined;
}

export function writeResponse(response: ServerResponse, { status, body, headers }: ApiResponse): void {
  if (response.headersSent || response.destroyed) return;
  if (body === undefined) {
    response.writeHead(status, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  response
    .writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    .end(text);
}
