/**
 * The Redis store's Lua scripts. Redis runs a script atomically (no other client's command runs in between), so
 * each one is a transaction: a create's count check, id and writes; a reset; a restore; the first start's seed.
 *
 * Keys, all under the prefix P (`--store-prefix`, default `petstore`):
 *   P:format          the layout version ("2"); present once the store is initialised (written with the seed)
 *   P:next            the id the next created pet gets (the atomic counter), in decimal digits
 *   P:pets            hash member → the pet's JSON text (stored-pet.ts's one serialiser)
 *   P:ids             sorted set of every pet's member, all at score 0: lists in id order in O(log N + limit)
 *   P:status:S        sorted set of the members whose status is S, likewise
 *   P:statuses        set of the statuses that have a sorted set (so a reset can delete them all)
 *   P:bytes           the UTF-8 bytes of every stored pet's text (the byte budget)
 *   P:seed            list of id, status, text triples: the pets a reset goes back to
 *   P:epoch           which life of the store this is: `seed:<random>` when a replica's start seeded it,
 *                     `reset:<random>` when an operator's reset, restore or reload last wrote it whole
 *   P:lost            present once a replica found the data it knew gone (the keys missing, or an epoch it never
 *                     joined and no operator wrote): every call, and every start, is refused until a reset
 *
 * Every script but INIT runs after GUARD, with the epoch the calling replica joined (E) and, for the whole-store
 * writes, the epoch it writes (NEW). Redis that restarts empty or is flushed loses every key, the marker included,
 * so an empty store cannot tell by itself whether it was ever used: the replicas that knew it can. The first call
 * of a running replica to find its data gone writes P:lost; a replica started meanwhile on the empty store then
 * does not seed it, and one that seeded it before that is found out by the epoch, which no running replica joined.
 * A replica follows a `reset:` epoch it did not join (another replica's reset, so nothing acknowledged is lost).
 *
 * Ids are int64 and Lua's numbers (and sorted-set scores) are doubles, exact only to 2^53: no id is ever a Lua
 * number. A pet's member is its id as fixed-width text whose byte order is the ids' order (redis-member.ts):
 * `p` and 19 zero-padded digits for an id from 0, `n` and the 19 digits of 2^63 + id for a negative one. Every
 * member is at score 0, and Redis orders equal scores by member bytes, so ZRANGE by rank lists in exact id order.
 * The counter is text too: read with GET, raised with INCR (Redis's own int64 arithmetic), never computed in Lua.
 * Pets arrive as flat triples (member, status or "", JSON text): a record never needs parsing in Lua, which would
 * round an int64. Lua strings are bytes, so `#text` is the text's UTF-8 length.
 * A store found without its format key (Redis lost its data) answers `store_empty`: every call then fails with a
 * 503 (acknowledged pets are gone, and a new seed would hand their ids out again) until a deliberate reset.
 * Refusals are returned as `{err = 'store_full …'}` replies; the store turns them into 409 ApiErrors.
 */

/** ARGV[2] and ARGV[3] are taken out (the caller's epoch E, the one a whole-store write writes, NEW). */
const EPOCHS = `
local P = ARGV[1]
local E = table.remove(ARGV, 2)
local NEW = table.remove(ARGV, 2)
`;

/** Refuses a call on a store whose data this replica knew is gone: `store_empty`, or `store_epoch` to follow a reset. */
const GUARD = `${EPOCHS}
if redis.call('EXISTS', P .. ':lost') == 1 then return redis.error_reply('store_empty') end
local current = redis.call('GET', P .. ':epoch')
if current ~= E then
  if current and string.sub(current, 1, 6) == 'reset:' then return redis.error_reply('store_epoch ' .. current) end
  redis.call('SET', P .. ':lost', E)
  return redis.error_reply('store_empty')
end
`;

/** After an operator's whole-store write: the new epoch, and the store is available again. */
const REOPEN = `
redis.call('SET', P .. ':epoch', NEW)
redis.call('DEL', P .. ':lost')
`;

/** One pet under its member: its text, its place in id order and in its status's order. */
const STORE_PET = `
local function storePet(member, status, text)
  redis.call('HSET', P .. ':pets', member, text)
  redis.call('ZADD', P .. ':ids', 0, member)
  if status ~= '' then
    redis.call('ZADD', P .. ':status:' .. status, 0, member)
    redis.call('SADD', P .. ':statuses', status)
  end
end
`;

const COMMON = `${STORE_PET}
local function clear()
  for _, s in ipairs(redis.call('SMEMBERS', P .. ':statuses')) do redis.call('DEL', P .. ':status:' .. s) end
  redis.call('DEL', P .. ':pets', P .. ':ids', P .. ':statuses', P .. ':bytes')
end
-- Inserts triples from t starting at index i; returns the highest member of an id from 0 (nil when none).
local function insert(t, i)
  local highest, bytes = nil, 0
  while i + 2 <= #t do
    local member, status, text = t[i], t[i + 1], t[i + 2]
    storePet(member, status, text)
    if string.sub(member, 1, 1) == 'p' and (highest == nil or member > highest) then highest = member end
    bytes = bytes + #text
    i = i + 3
  end
  redis.call('SET', P .. ':bytes', bytes)
  return highest
end
-- P:next after a seed: the highest id + 1 (INCR of its digits, exact), or 1 when no id is from 0. The caller
-- holds ids below 2^63 - 1 (check-fixtures.ts), so the INCR never overflows.
local function nextAfter(highest)
  if highest == nil then
    redis.call('SET', P .. ':next', '1')
    return
  end
  redis.call('SET', P .. ':next', string.match(string.sub(highest, 2), '^0*(%d+)$'))
  redis.call('INCR', P .. ':next')
end
-- The seed (ARGV[3..], triples) replaces the store and is kept for later resets; ARGV[2] is the store's format.
local function replaceSeed()
  clear()
  redis.call('DEL', P .. ':seed')
  local seed = {}
  for i = 3, #ARGV do seed[#seed + 1] = ARGV[i] end
  for i = 1, #seed, 1000 do redis.call('RPUSH', P .. ':seed', unpack(seed, i, math.min(i + 999, #seed))) end
  nextAfter(insert(seed, 1))
  redis.call('SET', P .. ':format', ARGV[2])
end
`;

/**
 * ARGV: P, E (unused), NEW, format, then the seed's triples. Writes the seed only when the store never held data,
 * or when NEW is an operator's `reset:` epoch. Returns {1, epoch} when it seeded, {0, epoch} when it joined a
 * store, {2, ''} for a store that lost its data (no seed written: its replicas answer 503 until a reset).
 */
export const INIT = `${EPOCHS}${COMMON}
local format = redis.call('GET', P .. ':format')
local lost = redis.call('EXISTS', P .. ':lost') == 1
local deliberate = string.sub(NEW, 1, 6) == 'reset:'
if format and not lost and not deliberate then
  if format ~= ARGV[2] then return redis.error_reply('store_format ' .. format) end
  local current = redis.call('GET', P .. ':epoch')
  -- A store written before epochs existed: this replica names its life.
  if not current then current = NEW; redis.call('SET', P .. ':epoch', NEW) end
  return { 0, current }
end
if lost and not deliberate then return { 2, '' } end
replaceSeed()
${REOPEN}
return { 1, NEW }
`;

/**
 * ARGV: P, maxPets, maxBytes, status or "", the pet's text after its id (\`"name":…}\`). Returns the new id's
 * digits. The id is only taken when the pet fits, so a refused create uses none; at P:next = 2^63 - 1 (the id
 * after it would not be an int64) the create is refused.
 */
export const CREATE = `${GUARD}${STORE_PET}
local maxPets, maxBytes, status, tail = tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5]
local count = redis.call('ZCARD', P .. ':ids')
if count >= maxPets then return redis.error_reply('store_full count ' .. count) end
local sid = redis.call('GET', P .. ':next')
if not sid then sid = '1'; redis.call('SET', P .. ':next', sid) end
if sid == '9223372036854775807' then return redis.error_reply('store_full ids') end
local text = '{"id":' .. sid .. ',' .. tail
local used = tonumber(redis.call('GET', P .. ':bytes') or '0')
if used + #text > maxBytes then return redis.error_reply('store_full bytes ' .. used .. ' ' .. #text) end
redis.call('INCR', P .. ':next')
local member = 'p' .. string.rep('0', 19 - #sid) .. sid
storePet(member, status, text)
redis.call('INCRBY', P .. ':bytes', #text)
return sid
`;

/** ARGV: P, limit, status or "". The first \`limit\` pets' texts in id order: O(log N + limit). */
export const LIST = `${GUARD}
local limit, status = tonumber(ARGV[2]), ARGV[3]
local key = status == '' and (P .. ':ids') or (P .. ':status:' .. status)
local ids = redis.call('ZRANGE', key, 0, limit - 1)
if #ids <= 1000 then return #ids == 0 and {} or redis.call('HMGET', P .. ':pets', unpack(ids)) end
local out = {}
for i = 1, #ids, 1000 do
  for _, text in ipairs(redis.call('HMGET', P .. ':pets', unpack(ids, i, math.min(i + 999, #ids)))) do out[#out + 1] = text end
end
return out
`;

/** ARGV: P, the pet's member. One pet's text, or nil; \`store_empty\` when the store lost its data (never a 404 for a lost pet). */
export const GET = `${GUARD}
return redis.call('HGET', P .. ':pets', ARGV[2])
`;

/** ARGV: P. How many pets, or \`store_empty\`. */
export const COUNT = `${GUARD}
return redis.call('ZCARD', P .. ':ids')
`;

/** ARGV: P. Back to the seed; ids continue after the seed's highest. */
export const RESET = `${GUARD}${COMMON}
clear()
nextAfter(insert(redis.call('LRANGE', P .. ':seed', 0, -1), 1))
${REOPEN}
return 1
`;

/** ARGV: P, format, then the new seed's triples: the seed replaced (a fixtures reload), then a reset to it. */
export const RESEED = `${EPOCHS}${COMMON}
replaceSeed()
${REOPEN}
return 1
`;

/** ARGV: P, nextId (digits, already above every id: the caller computes it exactly), then triples. */
export const RESTORE = `${GUARD}${COMMON}
clear()
insert(ARGV, 3)
redis.call('SET', P .. ':next', ARGV[2])
${REOPEN}
return 1
`;

/** ARGV: P. The next id, then every pet's text in id order, read at one instant. */
export const SNAPSHOT = `${GUARD}
local out = { redis.call('GET', P .. ':next') or '1' }
local ids = redis.call('ZRANGE', P .. ':ids', 0, -1)
for i = 1, #ids, 1000 do
  local texts = redis.call('HMGET', P .. ':pets', unpack(ids, i, math.min(i + 999, #ids)))
  for _, text in ipairs(texts) do out[#out + 1] = text end
end
return out
`;
