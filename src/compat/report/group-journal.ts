import type { Level } from '../check-ids.js';
import type { Finding, RecordedRequest } from '../finding.js';
import { describe } from '../replay-journal.js';

/** The journal's findings about one change: the same check on the same operation, for the same reason. */
export interface JournalGroup {
  check: string;
  level: Level;
  operation: string;
  /** What the change does to these requests, without naming one (`would be refused by …: query.limit must be <= 50`). */
  change: string;
  count: number;
  /** The first few requests, in the journal's order. */
  examples: RecordedRequest[];
}

/** How many requests a group shows: enough to recognise the calls, few enough that 50,000 stay one screen. */
export const EXAMPLES_PER_GROUP = 3;

/**
 * The journal's findings grouped by operation and change, each with its count and first requests: a client's
 * suite that made 50,000 requests reads as the handful of changes that break it. A finding's message names its
 * request first (`request #2 GET /v1/pets/1 …`, replay-journal.ts); what follows is the change.
 */
export function groupJournal(findings: Finding[]): JournalGroup[] {
  const groups = new Map<string, JournalGroup>();
  for (const found of findings) {
    const named = found.request ? describe(found.request) : '';
    const change = (
      named && found.message.startsWith(named) ? found.message.slice(named.length) : found.message
    ).trim();
    const key = `${found.check}\u0000${found.operation ?? ''}\u0000${change}`;
    // The replay groups already (replay-journal.ts: one finding per check, operation and change, with its count and
    // first requests); a finding without a count stands for its one request.
    const requests = found.examples ?? (found.request ? [found.request] : []);
    const group = groups.get(key);
    if (group) {
      group.count += found.count ?? 1;
      group.examples.push(...requests.slice(0, EXAMPLES_PER_GROUP - group.examples.length));
    } else {
      groups.set(key, {
        check: found.check,
        level: found.level,
        operation: found.operation ?? '',
        change,
        count: found.count ?? 1,
        examples: requests.slice(0, EXAMPLES_PER_GROUP),
      });
    }
  }
  const order = { breaking: 0, warning: 1, info: 2 };
  return [...groups.values()].sort((a, b) => order[a.level] - order[b.level] || b.count - a.count);
}
