import { ADMIN_USER, type NodeRedRuntime } from './runtime.js';

export type DeploymentType = 'full' | 'nodes' | 'flows';
export type FlowNode = Record<string, unknown> & { id: string; type: string };

export interface ApiAnswer {
  status: number;
  text: string;
}

/** Node-RED's admin HTTP API, logged in with a bearer token as a given user (or anonymous). */
export class AdminApi {
  private constructor(
    readonly url: string,
    private readonly token: string | undefined,
  ) {}

  static anonymous(url: string): AdminApi {
    return new AdminApi(url, undefined);
  }

  /** Logs in through `POST /auth/token`, as the editor does, asking for every permission the user has. */
  static async login(red: NodeRedRuntime, username = ADMIN_USER, password = red.password): Promise<AdminApi> {
    const scope = username === ADMIN_USER ? '*' : 'read';
    const response = await fetch(`${red.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'node-red-admin', grant_type: 'password', scope, username, password }),
    });
    if (!response.ok) throw new Error(`Logging in to Node-RED as ${username} answered ${response.status}`);
    const { access_token: token } = (await response.json()) as { access_token: string };
    return new AdminApi(red.url, token);
  }

  /** Same user, raw bearer token (for trying a forged one). */
  withToken(token: string): AdminApi {
    return new AdminApi(this.url, token);
  }

  async request(path: string, init: RequestInit = {}, timeoutMs = 30_000): Promise<ApiAnswer> {
    const headers: Record<string, string> = { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    const response = await fetch(`${this.url}${path}`, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, text: await response.text() };
  }

  async deploy(flows: readonly FlowNode[], type: DeploymentType): Promise<void> {
    const answer = await this.request('/flows', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'node-red-deployment-type': type },
      body: JSON.stringify(flows),
    });
    if (answer.status !== 200 && answer.status !== 204) throw new Error(`Deploy (${type}) answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  }

  /** True when Node-RED answers its admin API: the runtime is up and serving. */
  async responsive(): Promise<boolean> {
    try {
      return (await this.request('/settings', {}, 10_000)).status === 200;
    } catch {
      return false;
    }
  }
}
