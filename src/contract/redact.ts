/**
 * A function that hides `secret` in any text: as written, JSON-escaped and URL-encoded, so that the API key never
 * reaches a terminal, a log or a report, whatever a target echoes back.
 * @example createRedactor('s3cret')('Authorization: Bearer s3cret') // 'Authorization: Bearer ***'
 */
export function createRedactor(secret: string): (text: string) => string {
  const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])].filter(Boolean);
  // Longest first, so that a form containing another is replaced whole.
  forms.sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const form of forms) out = out.split(form).join('***');
    return out;
  };
}
