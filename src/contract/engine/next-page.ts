import { isSchemaNode } from '../../openapi/schema-keywords.js';
import type { Exchange } from '../base/exchange.js';

/**
 * Whether a list answer says that more items follow it: RFC 8288 §3.3 with the IANA link relation `next` ("the next
 * in the series"), as a `Link` header (`<…>; rel="next"`) or, in a list wrapped in an object, as a member `next`
 * that holds a link (a non-empty string, or an object with an `href`) at the top or inside one member (`links.next`,
 * `_links.next.href`: JSON:API §7.6 and HAL name it so). Such a page may leave items out; one without is the whole
 * list as far as the document's page bounds go (page-bounds.ts).
 * @example announcesNextPage({ headers: {}, body: { data: [], links: { next: 'https://x/b?page=2' } } }, 'data') // true
 */
export function announcesNextPage(sent: Pick<Exchange, 'headers' | 'body'>, wrapper: string | undefined): boolean {
  const link = Object.entries(sent.headers ?? {}).find(([name]) => name.toLowerCase() === 'link')?.[1];
  if (link !== undefined && /;\s*rel\s*=\s*"?(?:[^";,]*\s)?next(?:\s[^";,]*)?"?/i.test(link)) return true;
  if (wrapper === undefined || !isSchemaNode(sent.body)) return false;
  const body = sent.body;
  if (isLink(body.next)) return true;
  return Object.entries(body).some(([name, member]) => name !== wrapper && isSchemaNode(member) && isLink(member.next));
}

function isLink(value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  return isSchemaNode(value) && typeof value.href === 'string' && value.href !== '';
}
