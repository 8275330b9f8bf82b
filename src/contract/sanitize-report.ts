import { escapeControls } from './excerpt.js';

/**
 * Every string in a value (a case result, a report) redacted and with control characters escaped: applied where
 * results enter the reports, so that no report form, present or future, can print the key or a target's control
 * bytes, whatever a case put in a message.
 */
export function sanitize<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return escapeControls(redact(value)) as T;
  if (Array.isArray(value)) return value.map((item) => sanitize(item, redact)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sanitize(item, redact)])) as T;
  }
  return value;
}
