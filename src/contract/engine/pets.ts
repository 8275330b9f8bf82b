import { stringifyJson } from '../../json/stringify-json.js';
import { isDeepStrictEqual } from 'node:util';
import type { StoredPet as Pet } from '../../types.js';
import type { Sent } from './run-case.js';
import type { Spec } from '../../openapi/load-spec.js';
import { excerpt } from '../../text/excerpt.js';

/**
 * listPets' `limit` as the document gives it (v1: minimum 1, maximum 100, default 20; interface §8), read from the
 * resource model: no answer may hold more than the maximum, whatever was asked, and a list without `limit` holds the
 * default. Undefined where the document sets none: the fixed cases then judge no such bound.
 */
export interface ListBounds {
  minimum: number | undefined;
  maximum: number | undefined;
  default: number | undefined;
}

/**
 * Whether the document has v1's three operations by their ids (listPets, getPet, createPet): the fixed cases and
 * the v1 generated cases are written for them. A document that renames them (or has other collections only) is
 * judged by the resource model's oracles and the generated cases of every operation instead, under their own ids.
 */
export function hasV1Operations(spec: Pick<Spec, 'operationById'>): boolean {
  return V1_OPERATIONS.every((id) => spec.operationById.has(id));
}

const V1_OPERATIONS = ['listPets', 'getPet', 'createPet'];

export function listBounds(spec: Spec): ListBounds {
  const rule = spec.resources.collections.find((c) => c.operations.list?.operationId === 'listPets')?.limit;
  return { minimum: rule?.minimum, maximum: rule?.maximum, default: rule?.default };
}

/** The query that asks listPets for its largest page: `limit` at the document's maximum, else nothing. */
export function largestPage(bounds: ListBounds): Record<string, string> {
  return bounds.maximum === undefined ? {} : { limit: String(bounds.maximum) };
}

/** Whether a page holds no more pets than the maximum (any number when the document sets none). */
export function withinMaximum(bounds: ListBounds, count: number): boolean {
  return bounds.maximum === undefined || count <= bounds.maximum;
}

/** Whether the largest page may be cut short (by the maximum, else the default), so a pet missing may be beyond it. */
export function mayBeCut(bounds: ListBounds, count: number): boolean {
  const page = bounds.maximum ?? bounds.default;
  return page !== undefined && count >= page;
}

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
