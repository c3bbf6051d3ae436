import type { EndpointName } from '@stagelink/core';
import type { SessionState } from '../state/session-state.js';

export interface SimRequest {
  /** Path parameters (`{mac}`), percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /**
   * The JSON body, undefined when empty; BadRequest when it is not JSON. Parsed on first use, so an endpoint
   * without a body ignores one, and a hardware write answers 401 before it looks at the body.
   */
  body(): unknown;
  /**
   * Set on a management controller's listener: whether the request carried its account (HTTP Basic). Elsewhere
   * undefined, and the `login` control action stands in for the login the documents do not show.
   */
  readonly authorized?: boolean;
  /** The hostname of the machine whose listener (or management controller) the request reached. */
  readonly machine: string;
}

export interface Answer {
  status: number;
  /** Sent as JSON; a string with a `text/plain` content-type header is sent as it is. */
  body: unknown;
  headers?: Record<string, string>;
}

/** One catalogue endpoint: read the request, call the model, answer. Synchronous: the model is in memory. */
export type RouteHandler = (request: SimRequest, state: SessionState) => Answer;

/** The handlers of one endpoint family, keyed by catalogue id. */
export type FamilyRoutes = Partial<Record<EndpointName, RouteHandler>>;
