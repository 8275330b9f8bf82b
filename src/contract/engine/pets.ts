import { stringifyJson } from '../../json/stringify-json.js';
import { isDeepStrictEqual } from 'node:util';
import type { StoredPet as Pet } from '../../types.js';
import type { Sent } from './run-case.js';
import { excerpt } from '../../text/excerpt.js';

/** The interface's list maximum (§8): no answer may hold more pets, whatever was asked. */
export const LIST_MAXIMUM = 100;
/** The interface's default `limit` (§8). */
export const LIST_DEFAULT = 20;

/** The pets of a usable list response, or undefined. */
export function petsOf(sent: Sent): Pet[] | undefined {
  return sent.usable && Array.isArray(sent.body) ? (sent.body as Pet[]) : undefined;
}

/** The pet of a usable single-pet response, or undefined. */
export function petOf(sent: Sent): Pet | undefined {
  return sent.usable && sent.body !== null && typeof sent.body === 'object' && !Array.isArray(sent.body)
    ? (sent.body as Pet)
    : undefined;
}

export function isSuccess(sent: Sent): boolean {
  return sent.status !== undefined && sent.status >= 200 && sent.status < 300;
}

export function isClientError(sent: Sent): boolean {
  return sent.status !== undefined && sent.status >= 400 && sent.status < 500;
}

/** Same fields and values, whatever their order. */
export function samePet(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

export function show(value: unknown): string {
  const text = stringifyJson(value) ?? 'undefined';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** `400 invalid_parameter` from an Error body, for notes on what a target chose. */
export function errorSummary(sent: Sent): string {
  const code = (sent.body as { code?: unknown } | undefined)?.code;
  return `${sent.status}${typeof code === 'string' ? ` ${excerpt(code, 80)}` : ''}`;
}

export function pluralPets(count: number): string {
  return count === 1 ? '1 pet' : `${count} pets`;
}
