import type { LiveRequest, LiveStatus, LiveUpdateError, LiveValue, MediaServer } from '@stagelink/core';

/** One consumer of a live value, keeping every value, status and error it is told. */
export function watchLive(ms: MediaServer, request: LiveRequest) {
  const values: LiveValue[] = [];
  const statuses: LiveStatus[] = [];
  const errors: LiveUpdateError[] = [];
  const subscription = ms.live.subscribe(request, (value) => values.push(value), {
    onStatus: (status) => statuses.push(status),
    onError: (error) => errors.push(error),
  });
  return { subscription, values, statuses, errors };
}
