/** The sentence a log line or a key shows for a failure: core's errors already say what failed and what to do. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
