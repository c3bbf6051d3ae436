/**
 * The part of the Node-RED runtime API these nodes use, typed once. Node-RED ships no types of its own and
 * @types/node-red trails the runtime; this is small enough to keep exact.
 */

export interface NodeMessage {
  _msgid?: string;
  payload?: unknown;
  topic?: string;
  [key: string]: unknown;
}

export interface NodeStatus {
  fill?: 'red' | 'green' | 'yellow' | 'blue' | 'grey';
  shape?: 'ring' | 'dot';
  text?: string;
}

export type SendFunction = (msg: NodeMessage | (NodeMessage | NodeMessage[] | null)[] | null) => void;
export type DoneFunction = (error?: Error) => void;

export interface ContextStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

export interface Node<Credentials = Record<string, never>> {
  readonly id: string;
  readonly type: string;
  readonly z?: string;
  name?: string;
  credentials: Partial<Credentials>;
  on(event: 'input', listener: (msg: NodeMessage, send: SendFunction, done: DoneFunction) => void): void;
  on(event: 'close', listener: (removed: boolean, done: () => void) => void): void;
  send: SendFunction;
  status(status: NodeStatus | Record<string, never>): void;
  log(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
  /** With a msg, Catch nodes see it; without, it is only logged. */
  error(error: unknown, msg?: NodeMessage): void;
  context(): ContextStore & { flow: ContextStore; global: ContextStore };
}

/** What the editor saved for a node: its `defaults`, all as plain JSON values. */
export interface NodeDef {
  id: string;
  type: string;
  name?: string;
  z?: string;
  [key: string]: unknown;
}

export type PropertyType = 'str' | 'num' | 'bool' | 'json' | 'msg' | 'flow' | 'global' | 'env' | 'date' | 'jsonata';

export interface Request {
  query: Record<string, unknown>;
  params: Record<string, string>;
}

export interface Response {
  status(code: number): Response;
  json(body: unknown): void;
}

export type Handler = (req: Request, res: Response, next: () => void) => void;

export interface NodeAPI {
  /** A message of the runtime's catalogs, in the runtime's language; a key without `namespace:` is the node set's own. */
  _(key: string, values?: Record<string, string | number>): string;
  nodes: {
    createNode(node: object, def: NodeDef): void;
    registerType(type: string, constructor: (this: Node<never>, def: NodeDef) => void, options?: { credentials?: Record<string, { type: 'text' | 'password' }> }): void;
    getNode(id: string): unknown;
  };
  util: {
    /** An environment variable as `${NAME}` reads it in the node's settings: its flow's and global env, then the process's. */
    getSetting(node: unknown, name: string): unknown;
    evaluateNodeProperty(
      value: unknown,
      type: string,
      node: Node<never>,
      msg: NodeMessage,
      callback: (error: Error | null, result: unknown) => void,
    ): void;
  };
  httpAdmin: {
    get(path: string, ...handlers: Handler[]): void;
  };
  auth: {
    needsPermission(permission: string): Handler;
  };
  log: {
    warn(message: string): void;
  };
}
