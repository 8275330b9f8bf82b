import type { Answer } from './judge-answer.js';

/** The value an item path's last parameter takes to address an item the mock handed out: `{agent_id}` → `"7"`. */
export interface Address {
  name: string;
  value: string | number;
}

/**
 * The items the harness has seen the mock hand out — created (a 2xx JSON object answering a POST on a collection)
 * or listed (the first object of a 2xx JSON array answering a GET on it) — so that an operation on `/things/{id}`
 * addresses one of them, as a client does, rather than a made-up id the store never held (Box's `GET
 * /ai_agents/{agent_id}` was sent the parameter's example, `1234`, after `POST /ai_agents` had created another).
 */
export class KnownItems {
  private readonly byCollection = new Map<string, Record<string, unknown>>();

  /** Remembers the item an answer to `method path` shows, when it shows one. */
  note(method: string, path: string, answer: Answer): void {
    if (answer.status < 200 || answer.status > 299 || path.endsWith('}')) return;
    if (!/^application\/([^;]*\+)?json\b/i.test(answer.contentType ?? '')) return;
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return;
    }
    const created = method === 'post' ? body : undefined;
    const listed = method === 'get' && Array.isArray(body) ? (body[0] as unknown) : undefined;
    // A created item wins over a listed one: it is the client's own, and a list may show a seed a delete removes.
    if (isItem(created)) this.byCollection.set(path, created);
    else if (isItem(listed) && !this.byCollection.has(path)) this.byCollection.set(path, listed);
  }

  /**
   * The address of a known item for a path whose last segment is one parameter below a known collection
   * (`/ai_agents/{agent_id}` below `/ai_agents`): the item's property named like the parameter, else its `id`.
   */
  addressFor(path: string): Address | undefined {
    const match = /^(.*)\/\{([^}/]+)\}$/.exec(path);
    const item = match ? this.byCollection.get(match[1]!) : undefined;
    if (!match || !item) return undefined;
    const value = item[match[2]!] ?? item.id;
    // An empty id is no address: the path would lose its segment (`/v1/coupons/`) and name no item at all.
    if (value === '' || (typeof value !== 'string' && typeof value !== 'number')) return undefined;
    return { name: match[2]!, value };
  }
}

function isItem(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
