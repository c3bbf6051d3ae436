declare module 'node-red-node-test-helper' {
  import type { EventEmitter } from 'node:events';

  interface TestNode extends EventEmitter {
    id: string;
    type: string;
    credentials: Record<string, unknown>;
    receive(msg: Record<string, unknown>): void;
  }

  interface SuperTestRequest {
    get(path: string): Promise<{ status: number; body: unknown }> & { query(q: Record<string, string>): Promise<{ status: number; body: unknown }> };
  }

  interface Helper {
    init(runtimePath?: string, userSettings?: Record<string, unknown>): void;
    load(nodes: unknown, flow: object[], credentials?: Record<string, Record<string, string>>): Promise<void>;
    setFlows(flow: object[], type: 'full' | 'flows' | 'nodes', credentials?: Record<string, Record<string, string>>): Promise<void>;
    unload(): Promise<void>;
    getNode(id: string): TestNode | null;
    request(): SuperTestRequest;
    _redNodes: {
      getFlows(): { flows: object[] } | null;
      getCredentialDefinition(type: string): Record<string, { type: string }> | undefined;
    };
  }

  const helper: Helper;
  export = helper;
}
