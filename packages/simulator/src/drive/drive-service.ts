import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { errorResponse, type ApiResponse } from './api-errors.js';
import { answerApiRequest, type DriveApi } from './api.js';
import { DriveFaults, parseControlAction, type ControlAction } from './control.js';
import { DriveState } from './drive-state.js';
import { readBody, writeResponse } from './http-io.js';
import { RequestLog, type ReceivedRequest } from './request-log.js';
import { seededRandom, type Random } from './random.js';
import { seedBulkAsset, seedOrganisation, type SeededOrganisation } from './seed.js';
import { wallClock } from './timestamps.js';

export interface DriveServiceOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Same seed, same ids, tokens and versions (default 1). */
  seed?: number;
}

export interface DriveService {
  url: string;
  /** The demo token: an owner's valid token on a plan with version rights. */
  token: string;
  demoDrive: { driveId: string; contentId: string; singleVersionContentId: string; emptyContentId: string };
  /** The organisation's other tokens, for trying refusals (see README.md). */
  otherTokens: { revoked: string; withoutVersionRights: string };
  /** API requests received since start; control requests are not counted. */
  readonly requestCount: number;
  /** The most recent API requests (up to 100), oldest first, as they arrived on the wire. */
  recentRequests(): ReceivedRequest[];
  /** Stops listening and drops open connections, keep-alive ones included. Safe to call more than once. */
  close(): Promise<void>;
}

export const CONTROL_PATH = '/__sim/control';
const DEFAULT_SEED = 1;
/** Bulk assets draw from a random source of their own, so adding one never changes the seeded drives. */
const BULK_SEED_SALT = 0x9e3779b9;

/** Which asset `addAsset` made. */
export interface AddedAsset {
  driveId: string;
  contentId: string;
}

/** Starts the cloud drive stand-in with the seeded demo organisation. */
export async function startDriveService(options: DriveServiceOptions): Promise<DriveService> {
  const seed = options.seed ?? DEFAULT_SEED;
  const service = new DriveServer(seedOrganisation(seed), seed);
  const url = await service.listen(options.host, options.port);
  const { demo } = service.organisation;
  return {
    url,
    token: demo.token,
    demoDrive: {
      driveId: demo.driveId,
      contentId: demo.contentId,
      singleVersionContentId: demo.singleVersionContentId,
      emptyContentId: demo.emptyContentId,
    },
    otherTokens: { revoked: demo.revokedToken, withoutVersionRights: demo.withoutVersionRightsToken },
    get requestCount() {
      return service.log.count;
    },
    recentRequests: () => service.log.recent(),
    close: () => service.close(),
  };
}

/** The node:http side: control requests, injected faults, then the API. */
class DriveServer {
  readonly log = new RequestLog();
  readonly organisation: SeededOrganisation;
  readonly #seed: number;
  readonly #faults = new DriveFaults();
  readonly #server: Server;
  /** Aborts injected latencies when the service closes, so no timer outlives it. */
  readonly #closed = new AbortController();
  #state: DriveState;
  #bulkRandom: Random;
  /** Known once listening; the base of the links in pages. */
  #baseUrl = '';
  #closing: Promise<void> | undefined;

  constructor(organisation: SeededOrganisation, seed: number) {
    this.organisation = organisation;
    this.#seed = seed;
    this.#state = this.#seededState();
    this.#bulkRandom = this.#seededBulkRandom();
    this.#server = createServer((request, response) => {
      this.#answer(request, response).catch(() => {
        writeResponse(response, errorResponse(500, 'Server error', 'The simulator failed to answer this request.'));
      });
    });
  }

  async listen(host: string, port: number): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const address = this.#server.address() as AddressInfo;
    this.#baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    return this.#baseUrl;
  }

  close(): Promise<void> {
    this.#closing ??= new Promise((resolve) => {
      this.#closed.abort();
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closing;
  }

  async #answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = request.url ?? '/';
    const [rawPath = '/', query = ''] = target.split(/\?(.*)/s, 2);
    const body = await readBody(request);
    if (body === undefined) {
      writeResponse(response, errorResponse(413, 'Payload too large', 'The request body is larger than 1 MiB.'));
    } else if (rawPath === CONTROL_PATH) {
      writeResponse(response, this.#control(request.method ?? '', body));
    } else {
      writeResponse(response, await this.#apiAnswer(request, { target, rawPath, query, body }));
    }
  }

  async #apiAnswer(request: IncomingMessage, parts: { target: string; rawPath: string; query: string; body: string }): Promise<ApiResponse> {
    const method = request.method ?? '';
    this.log.record(method, parts.target);
    if (this.#faults.latencyMs > 0) await delay(this.#faults.latencyMs, undefined, { signal: this.#closed.signal });
    const injected = this.#faults.takeFailure();
    if (injected !== undefined) {
      return errorResponse(injected, 'Injected failure', `failNext from ${CONTROL_PATH}: this request was not processed.`);
    }
    const api: DriveApi = { state: this.#state, tokens: this.organisation.tokens, baseUrl: this.#baseUrl };
    return answerApiRequest(api, {
      method,
      rawPath: parts.rawPath,
      query: new URLSearchParams(parts.query),
      authorization: request.headers.authorization,
      body: parts.body,
    });
  }

  #control(method: string, body: string): ApiResponse {
    if (method !== 'POST') return errorResponse(405, 'Method not allowed', `${CONTROL_PATH} takes POST.`, { allow: 'POST' });
    const parsed = parseControlAction(body);
    if (!parsed.ok) return errorResponse(400, 'Bad control request', parsed.details);
    const added = this.#apply(parsed.action);
    return { status: 200, body: { ...this.#faults.summary(), requests: this.log.count, ...added } };
  }

  /** Carries out a control action; `addAsset` answers which asset it made. */
  #apply(action: ControlAction): { asset?: AddedAsset } {
    switch (action.action) {
      case 'latency':
        this.#faults.latencyMs = action.ms;
        return {};
      case 'failNext':
        this.#faults.failNext(action.status, action.count);
        return {};
      case 'addAsset':
        return { asset: this.#addBulkAsset(action.versions) };
      case 'reset':
        this.#faults.clear();
        this.#state = this.#seededState();
        this.#bulkRandom = this.#seededBulkRandom();
        return {};
    }
  }

  /** A new asset with `versionCount` versions in the demo drive, newest active, like the seeded ones. */
  #addBulkAsset(versionCount: number): AddedAsset {
    const { driveId } = this.organisation.demo;
    const asset = seedBulkAsset(this.#bulkRandom, versionCount, this.organisation.uploaders);
    this.#state.addAsset(driveId, asset);
    return { driveId, contentId: asset.id };
  }

  /** The drives as seeded: what the service starts with and what reset returns to. */
  #seededState(): DriveState {
    return new DriveState(this.organisation.drives, wallClock());
  }

  #seededBulkRandom(): Random {
    return seededRandom((this.#seed ^ BULK_SEED_SALT) >>> 0);
  }
}
