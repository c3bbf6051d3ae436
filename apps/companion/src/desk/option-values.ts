/**
 * Option values as Companion hands them over (a dropdown's custom value always as text, an expression's result as
 * whatever it gave), read as the kind core expects. Empty means "not set"; a value that is there but cannot be
 * what its field takes is an error that says so, never sent.
 */
import type { JsonValue } from '@companion-module/base';
import { InvalidInputError, type TransportField, type TransportFieldKind } from '@stagelink/core';

export function textOption(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
}

export function numberOption(value: JsonValue | undefined, label: string): number | undefined {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw new InvalidInputError(`The ${label} must be a number.`);
  }
  const text = textOption(value);
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isFinite(number)) throw new InvalidInputError(`The ${label} must be a number (got "${text}").`);
  return number;
}

export function booleanOption(value: JsonValue | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = textOption(value)?.toLowerCase();
  if (text === 'true' || text === '1' || text === 'on') return true;
  if (text === 'false' || text === '0' || text === 'off') return false;
  return undefined;
}

/** One transport field as core takes it; a section stays a number or decimal text, which core checks. */
export function transportFieldOption(value: JsonValue | undefined, field: TransportField, kind: TransportFieldKind): unknown {
  switch (kind) {
    case 'text':
      return textOption(value);
    case 'index':
      return typeof value === 'number' ? value : textOption(value);
    case 'number':
      return numberOption(value, field);
    case 'boolean':
      return booleanOption(value);
    case 'ref': {
      const name = textOption(value);
      return name === undefined ? undefined : { name };
    }
  }
}
