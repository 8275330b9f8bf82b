import { escapeControls } from '../../text/excerpt.js';

/** The longest string a report keeps anywhere (a curl with its body, a note quoting a header): the rest is cut. */
export const MAX_REPORT_STRING = 4000;

/**
 * Every string in a value (a case result, a report) redacted, bounded and with control characters escaped: applied
 * where results enter the reports, so that no report form, present or future, can print the key, a target's
 * control bytes or megabytes of its text, whatever a case put in a message. Redaction comes before the cut.
 */
export function sanitize<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return escapeControls(bound(redact(value))) as T;
  if (Array.isArray(value)) return (value as unknown[]).map((item) => sanitize(item, redact)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sanitize(item, redact)])) as T;
  }
  return value;
}

function bound(text: string): string {
  return text.length <= MAX_REPORT_STRING ? text : `${text.slice(0, MAX_REPORT_STRING)}… (${text.length} characters)`;
}
