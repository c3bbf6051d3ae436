/** One message of a debug node as the editor's debug sidebar receives it. */
export interface DebugMessage {
  /** The debug node's id. */
  id: string;
  topic?: string;
  /** The value shown, decoded from the sidebar's encoding. */
  value: unknown;
}

/**
 * The editor's comms socket, listened to as the debug sidebar listens: every debug message from now on.
 * Node 20 has `WebSocket` only with `--experimental-websocket` (set in vitest.config.mts).
 */
export class DebugSidebar {
  readonly messages: DebugMessage[] = [];
  readonly #socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => this.#receive(String(event.data)));
  }

  static async open(editorUrl: string): Promise<DebugSidebar> {
    const socket = new WebSocket(`${editorUrl.replace(/^http/, 'ws')}/comms`);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`Could not open ${editorUrl}/comms`)), { once: true });
    });
    socket.send(JSON.stringify({ subscribe: 'debug' }));
    return new DebugSidebar(socket);
  }

  /** Messages of one debug node. */
  from(id: string): DebugMessage[] {
    return this.messages.filter((message) => message.id === id);
  }

  close(): void {
    this.#socket.close();
  }

  #receive(text: string): void {
    const events = JSON.parse(text) as unknown;
    for (const event of Array.isArray(events) ? (events as { topic?: string; data?: unknown }[]) : []) {
      if (event.topic !== 'debug') continue;
      const data = event.data as { id?: string; topic?: string; msg?: unknown; format?: string };
      if (typeof data.id !== 'string') continue;
      this.messages.push({ id: data.id, topic: data.topic, value: decode(data.msg, data.format) });
    }
  }
}

/** The sidebar gets objects and arrays as JSON text, with their kind in `format` ("Object", "array[3]"). */
function decode(value: unknown, format = ''): unknown {
  return typeof value === 'string' && /^(Object|array)/.test(format) ? JSON.parse(value) : value;
}
