import { getHeapStatistics } from 'node:v8';

/** The most the server's default budget is, whatever the heap. */
export const MAX_DEFAULT_STORE_BYTES = 256 * 1024 * 1024;

/**
 * The server's default byte budget for a memory store, sized to the machine: a quarter of V8's heap limit (which
 * Node sizes from the machine's memory; `--max-old-space-size` changes it), at most 256 MiB. Stored text is held
 * about once (see `freezeItem`), plus a few hundred bytes of objects and indexes per pet, so a full store stays well
 * inside the heap.
 */
export function defaultMaxStoreBytes(): number {
  return Math.min(Math.floor(getHeapStatistics().heap_size_limit / 4), MAX_DEFAULT_STORE_BYTES);
}
