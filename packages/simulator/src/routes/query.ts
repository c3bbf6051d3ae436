import type { Ref } from '@stagelink/core';
import { BadRequest } from '../http-errors.js';
import type { SimRequest } from './route.js';

const MAX_UINT64 = 18446744073709551615n;

/** `?uid=&name=`: the uid is a uint64 in decimal digits, kept as a string; one of the two is needed. */
export function queryRef(request: SimRequest): Ref {
  const uid = request.query.get('uid') ?? '';
  const name = request.query.get('name') ?? '';
  if (uid !== '' && !isUint64(uid)) throw new BadRequest(`Query parameter uid must be a uint64 in decimal digits (got "${uid}").`);
  if (uid === '' && name === '') throw new BadRequest('Give the query parameter uid or name.');
  return { ...(uid ? { uid } : {}), ...(name ? { name } : {}) };
}

/** An optional uint64 query parameter, as a JS number: big values only need to compare as "past the end". */
export function queryCount(request: SimRequest, key: string): number | undefined {
  const text = request.query.get(key);
  if (text === null || text === '') return undefined;
  if (!isUint64(text)) throw new BadRequest(`Query parameter ${key} must be a uint64 in decimal digits (got "${text}").`);
  return Number(text);
}

function isUint64(text: string): boolean {
  return /^\d{1,20}$/.test(text) && BigInt(text) <= MAX_UINT64;
}
