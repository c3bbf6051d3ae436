/** What every call of a client takes: a way to cancel it, and its deadline. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Deadline for this call, retries included; defaults to the client's `timeoutMs`. */
  timeoutMs?: number;
}
