import type { Faults } from '../base/faults.js';
import type { Reply } from '../base/reply.js';

const DROP: Reply = Object.freeze({ status: 0, drop: true });

/**
 * `--fault-rate`: a simulated flaky network drops the connection (the adapter destroys the socket) instead of
 * answering. Returns the drop reply, or undefined to go on.
 */
export function dropConnection(faults: Faults): Reply | undefined {
  return faults.drop() ? DROP : undefined;
}
