import { child, escapeSegment, follow, type Located } from './located.js';
import type { IndependentValidator } from './independent-validator.js';
import type { Document } from './read-document.js';

/** An answer as received: status, Content-Type and the body's text. */
export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/**
 * What makes `answer` break the document for the operation it answers, one line per cause; empty when it is a
 * valid answer. The rules, all from the specification, none of the mock's:
 * - the status is declared: exactly, else as a range (`4XX`), else by `default` (OAS 3.0.3 §4.7.16: "the explicit
 *   code definition takes precedence over the range definition"; `default` "for all HTTP codes that are not covered
 *   individually");
 * - a body only where the response declares `content`, its Content-Type one of the declared media types (or covered
 *   by a declared range such as `application/*`, OAS 3.0.3 §4.7.17);
 * - a JSON body (`application/json`, `+json`) valid against the media type's schema, `writeOnly` properties
 *   excepted. An operation without `responses` (OAS 3.1.0 allows it) declares nothing to break.
 */
export function judgeAnswer(
  validator: IndependentValidator,
  operation: { method: string; path: string },
  answer: Answer,
): string[] {
  const document = validator.document;
  const op: Located = {
    node: document.paths[operation.path][operation.method] as Document,
    pointer: `#/paths/${escapeSegment(operation.path)}/${operation.method}`,
  };
  if (op.node.responses === undefined) return [];
  const responses = child(op, 'responses') as Located;
  const code = declaredCode(responses.node, answer.status);
  if (code === undefined)
    return [`status ${answer.status} not declared (declared: ${Object.keys(responses.node).join(', ')})`];
  const response = follow(document, child(responses, code));
  if (!response) return [`response ${code} cannot be resolved`];
  return judgeBody(validator, response, code, answer);
}

function declaredCode(responses: Document, status: number): string | undefined {
  const codes = Object.keys(responses);
  const range = `${String(status)[0]}XX`;
  return (
    codes.find((code) => code === String(status)) ??
    codes.find((code) => code.toUpperCase() === range) ??
    codes.find((code) => code === 'default')
  );
}

function judgeBody(validator: IndependentValidator, response: Located, code: string, answer: Answer): string[] {
  const content = response.node.content as Document | undefined;
  if (answer.text === '' && answer.contentType === null) return [];
  // An error declared without content describes no payload and forbids none (OAS 3.0.3 §4.7.17): the mock keeps
  // its message there, as the runner reads it (an error owed no body is judged by its status alone).
  if ((content === undefined || Object.keys(content).length === 0) && answer.status >= 400) return [];
  if (content === undefined || Object.keys(content).length === 0)
    return [
      `${answer.status} (as ${code}) has a ${answer.contentType ?? 'body'} body where the document declares none`,
    ];
  const type = (answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const declared = Object.keys(content);
  const matched = matchMediaType(declared, type);
  if (matched === undefined)
    return [`${answer.status} (as ${code}) is ${type || 'without Content-Type'}, not ${declared.join(' or ')}`];
  const media = child(child(response, 'content') as Located, matched) as Located;
  if (media.node.schema === undefined || !isJson(type)) return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`${answer.status} (as ${code}) is ${type} but its body is not JSON`];
  }
  return validator
    .problems(child(media, 'schema').pointer, body, 'response')
    .map((problem) => `${answer.status} (as ${code}) body ${problem}`);
}

/** Exact first, then the most specific declared range (`text/*`, then `*∕*`), parameters aside. */
function matchMediaType(declared: string[], type: string): string | undefined {
  const bare = (key: string) => key.split(';')[0]!.trim().toLowerCase();
  return (
    declared.find((key) => bare(key) === type) ??
    declared.find((key) => bare(key) === `${type.split('/')[0]}/*`) ??
    declared.find((key) => bare(key) === '*/*')
  );
}

const isJson = (type: string) => type === 'application/json' || /\+json$/.test(type);
