/**
 * What became of a cue, told from how it failed: the one rule every front end (a key's face, a desk's last-cue
 * variable) says it by, so two of them never tell one cue two ways. Read from the error's stable `code` and
 * `mayHaveReachedServer` only, never from its words, so it holds for an error from another bundle's copy of core.
 *
 * - `ok`: the server took it (no error).
 * - `not-sent`: it provably never left this computer, and not because the server could not be reached: it waited
 *   longer than its budget behind other cues, its deadline passed while the director was still looked for or
 *   before the server answered the one question asked ahead of a cue, its input could not be sent, a guarded
 *   command lacked its confirmation, the caller aborted it before it left, or the client was closed. Sending it
 *   again cannot repeat it.
 * - `link-down`: it provably never left because the server could not be reached (connection refused, unknown host)
 *   or was known not to answer (refused at once while the link was down). Also never sent.
 * - `refused`: the server answered no (a refusal in the envelope, an HTTP error status, a command this build does not
 *   offer). It did not play.
 * - `landed-late`: its answer came after the deadline, and the transports read once more show what it asked for and
 *   did not just before: it played, late. It was not sent again.
 * - `unknown`: it may have reached the server and nobody can tell whether it played: its answer came late and the
 *   re-read cannot tell, no answer came in time, the connection broke mid-request, the answer stopped after its
 *   headers or was not the API's, the caller aborted it after it may have left, or the error is none of core's. Look at the show before
 *   sending it again. When in doubt this is the answer: a false "did not play" gets a cue pressed twice.
 */
export type CueFate = 'ok' | 'not-sent' | 'link-down' | 'refused' | 'landed-late' | 'unknown';

/** Every fate, in the order above. */
export const CUE_FATES: readonly CueFate[] = ['ok', 'not-sent', 'link-down', 'refused', 'landed-late', 'unknown'];

/** The server answered no: a refusal in the envelope, and every HTTP error status of core's error tree. */
const REFUSED_CODES: ReadonlySet<string> = new Set([
  'STAGELINK_ERR_REFUSED',
  'STAGELINK_ERR_HTTP',
  'STAGELINK_ERR_NOT_FOUND',
  'STAGELINK_ERR_DRIVE_NOT_FOUND',
  'STAGELINK_ERR_NOT_OFFERED',
  'STAGELINK_ERR_AUTH',
  'STAGELINK_ERR_CONFLICT',
]);

/** Refused before anything was sent, whatever the server: input, a missing confirmation, a closed client. */
const UNSENT_CODES: ReadonlySet<string> = new Set([
  'STAGELINK_ERR_INVALID_INPUT',
  'STAGELINK_ERR_HARDWARE_TARGET',
  'STAGELINK_ERR_CONFIRMATION_REQUIRED',
  'STAGELINK_ERR_NOT_DESCRIBED',
  'STAGELINK_ERR_NOT_ENABLED',
  'STAGELINK_ERR_CLOSED',
]);

/** What became of a cue that settled with `error` (undefined: it went through). See CueFate. */
export function cueFateOf(error?: unknown): CueFate {
  if (error === undefined) return 'ok';
  const { code, mayHaveReachedServer } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; mayHaveReachedServer?: unknown };
  // Only a flag set to false proves the request never left; a missing one proves nothing.
  const neverLeft = mayHaveReachedServer === false;
  switch (code) {
    case 'STAGELINK_ERR_LATE_LANDED':
      return 'landed-late';
    case 'STAGELINK_ERR_CONNECTION':
      return neverLeft ? 'link-down' : 'unknown';
    case 'STAGELINK_ERR_TIMEOUT':
    case 'STAGELINK_ERR_ABORTED':
      return neverLeft ? 'not-sent' : 'unknown';
  }
  if (typeof code !== 'string') return 'unknown';
  if (REFUSED_CODES.has(code)) return 'refused';
  if (UNSENT_CODES.has(code)) return 'not-sent';
  return 'unknown';
}
