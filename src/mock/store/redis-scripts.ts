/**
 * The Redis store's Lua scripts (key layout 3). Redis runs a script atomically (no other client's command runs in
 * between), so each one is a transaction: a create's count and byte checks, id and writes; an update that checks
 * the item is still the one the change was computed from; a delete with its nested items; a reset; a restore.
 *
 * Store-wide keys, under the prefix P (`--store-prefix`, default `petstore`):
 *   P:format          the layout version ("3"); present once the store is initialised (written with the seed)
 *   P:epoch           which life of the store this is: `seed:<random>` when a replica's start seeded it,
 *                     `reset:<random>` when an operator's reset, restore or reload last wrote it whole
 *   P:gone            present once a replica found the data it knew gone (the keys missing, or an epoch it never
 *                     joined and no operator wrote): every call, and every start, is refused until a reset.
 *                     (Layout 2 called it P:lost; an upgrade sets P:lost so that a layout-2 replica still running
 *                     answers 503 instead of writing keys nobody reads any more.)
 * Per collection, under C = P:c:<bytes of its name>:<name> (redis-layout.ts):
 *   C:next            the counter the next int64 or string id comes from, in decimal digits (INCR: exact)
 *   C:seq             the order of string and UUID ids (their score: creation order, as the memory store lists)
 *   C:items           hash member → the item's JSON text (id first, then the parent's property, then the fields)
 *   C:ids             sorted set of every member: lists by rank in O(log N + limit)
 *   C:f:<suffix>      sorted set of the members a filter value (`v…`) or a parent (`p:<parent id>`) holds
 *   C:ix              set of the C:f: keys ever written (so a reset can delete them all)
 *   C:keys            hash member → the item's C:f: suffixes, length-prefixed (an update or delete leaves them)
 *   C:parents         hash member → the parent's id as JSON text (a nested collection's snapshot)
 *   C:own             hash member → the id's text, for a negative int64 id only (others read it from the member)
 *   C:bytes           the UTF-8 bytes of every stored item's text (the byte budget)
 *   C:seed, C:seedmeta  the records a reset goes back to, and the counters after them
 *
 * Every script but INIT and RESEED runs after GUARD, with the epoch the calling replica joined (E) and, for the
 * whole-store writes, the epoch it writes (NEW). Redis that restarts empty or is flushed loses every key, the marker
 * included, so an empty store cannot tell by itself whether it was ever used: the replicas that knew it can. The
 * first call of a running replica to find its data gone writes P:gone; a replica started meanwhile on the empty
 * store then does not seed it, and one that seeded it before that is found out by the epoch, which no running
 * replica joined. A replica follows a `reset:` epoch it did not join (another replica's reset).
 *
 * Ids are int64 and Lua's numbers (and sorted-set scores) are doubles, exact only to 2^53: no id is ever a Lua
 * number. An int64 item's member is its id as fixed-width text whose byte order is the ids' order
 * (redis-member.ts), at score 0, so ZRANGE by rank lists in exact id order; a string or UUID id's member is `s` and
 * the id, scored by C:seq. Counters are text: read with GET, raised with INCR (Redis's own int64 arithmetic). Items
 * arrive as records (member, score, text, parent or "", own id text or "", count, suffixes…): a record never needs
 * parsing in Lua, which would round an int64. Lua strings are bytes, so `#text` is the text's UTF-8 length.
 * Refusals are returned as error replies (`store_full …`, `store_empty`, `store_changed`, `store_taken`, `store_named`); the store
 * turns them into ApiErrors or retries.
 */

/** ARGV[2] and ARGV[3] are taken out (the caller's epoch E, the one a whole-store write writes, NEW). */
const EPOCHS = `
local P = ARGV[1]
local E = table.remove(ARGV, 2)
local NEW = table.remove(ARGV, 2)
`;

/** Refuses a call on a store whose data this replica knew is gone: `store_empty`, or `store_epoch` to follow a reset. */
const GUARD = `${EPOCHS}
if redis.call('EXISTS', P .. ':gone') == 1 then return redis.error_reply('store_empty') end
local current = redis.call('GET', P .. ':epoch')
if current ~= E then
  if current and string.sub(current, 1, 6) == 'reset:' then return redis.error_reply('store_epoch ' .. current) end
  redis.call('SET', P .. ':gone', E)
  return redis.error_reply('store_empty')
end
`;

/** After an operator's whole-store write: the new epoch, and the store is available again. */
const REOPEN = `
redis.call('SET', P .. ':epoch', NEW)
redis.call('DEL', P .. ':gone')
`;

/** Items in and out of a collection: their text, order, filter and parent sets, and the nested items of a delete. */
const ITEMS = `
local function encodeKeys(list)
  local parts = {}
  for _, k in ipairs(list) do parts[#parts + 1] = #k .. ':' .. k end
  return table.concat(parts)
end
local function decodeKeys(s)
  local out, pos = {}, 1
  while s and pos <= #s do
    local colon = string.find(s, ':', pos, true)
    local len = tonumber(string.sub(s, pos, colon - 1))
    out[#out + 1] = string.sub(s, colon + 1, colon + len)
    pos = colon + len + 1
  end
  return out
end
local function putItem(C, member, score, text, parent, own, idx)
  redis.call('HSET', C .. ':items', member, text)
  redis.call('ZADD', C .. ':ids', score, member)
  if parent ~= '' then redis.call('HSET', C .. ':parents', member, parent) end
  if own ~= '' then redis.call('HSET', C .. ':own', member, own) end
  if #idx > 0 then redis.call('HSET', C .. ':keys', member, encodeKeys(idx)) end
  for _, suffix in ipairs(idx) do
    local key = C .. ':f:' .. suffix
    redis.call('ZADD', key, score, member)
    redis.call('SADD', C .. ':ix', key)
  end
end
-- The id's text as a parent index names it: the digits of an int64 member, the string of an 's' member.
local function ownKey(C, member)
  local kind = string.sub(member, 1, 1)
  if kind == 's' then return string.sub(member, 2) end
  if kind == 'p' then return string.match(string.sub(member, 2), '^0*(%d+)$') end
  return redis.call('HGET', C .. ':own', member)
end
-- Removes an item and, through the edges (parent collection, nested collection), every item nested under it.
local function removeItem(C, member, edges)
  local text = redis.call('HGET', C .. ':items', member)
  if not text then return nil end
  for _, suffix in ipairs(decodeKeys(redis.call('HGET', C .. ':keys', member))) do
    redis.call('ZREM', C .. ':f:' .. suffix, member)
  end
  local own = ownKey(C, member)
  redis.call('ZREM', C .. ':ids', member)
  redis.call('HDEL', C .. ':items', member)
  redis.call('HDEL', C .. ':keys', member)
  redis.call('HDEL', C .. ':parents', member)
  redis.call('HDEL', C .. ':own', member)
  redis.call('INCRBY', C .. ':bytes', -#text)
  for _, edge in ipairs(edges) do
    if edge[1] == C and own then
      for _, child in ipairs(redis.call('ZRANGE', edge[2] .. ':f:p:' .. own, 0, -1)) do removeItem(edge[2], child, edges) end
    end
  end
  return text
end
local function inParent(C, member, parent)
  return parent == '' or redis.call('ZSCORE', C .. ':f:' .. parent, member)
end
`;

/** Whole collections: written from records, cleared, seeded; walked as blocks (C, next, seq, length, values…). */
const COLLECTIONS = `${ITEMS}
local function insertRecords(C, t, i, j)
  local bytes = 0
  while i <= j do
    local k = tonumber(t[i + 5])
    local idx = {}
    for n = 1, k do idx[n] = t[i + 5 + n] end
    putItem(C, t[i], t[i + 1], t[i + 2], t[i + 3], t[i + 4], idx)
    bytes = bytes + #t[i + 2]
    i = i + 6 + k
  end
  return bytes
end
local function clearCollection(C)
  local ix = redis.call('SMEMBERS', C .. ':ix')
  for i = 1, #ix, 1000 do redis.call('DEL', unpack(ix, i, math.min(i + 999, #ix))) end
  redis.call('DEL', C .. ':ix', C .. ':items', C .. ':ids', C .. ':keys', C .. ':parents', C .. ':own', C .. ':bytes')
end
local function writeCollection(C, nxt, seq, t, i, j)
  clearCollection(C)
  redis.call('SET', C .. ':bytes', insertRecords(C, t, i, j))
  redis.call('SET', C .. ':next', nxt)
  redis.call('SET', C .. ':seq', seq)
end
local function writeSeed(C, nxt, seq, t, i, j)
  redis.call('DEL', C .. ':seed')
  for a = i, j, 1000 do redis.call('RPUSH', C .. ':seed', unpack(t, a, math.min(a + 999, j))) end
  redis.call('HSET', C .. ':seedmeta', 'next', nxt, 'seq', seq)
  writeCollection(C, nxt, seq, t, i, j)
end
local function resetCollection(C)
  local seed = redis.call('LRANGE', C .. ':seed', 0, -1)
  local meta = redis.call('HMGET', C .. ':seedmeta', 'next', 'seq')
  writeCollection(C, meta[1] or '1', meta[2] or '0', seed, 1, #seed)
end
-- Every block from t[i]: its seed written (onlyNew: only for a collection that has none yet).
local function seedBlocks(t, i, onlyNew)
  while i <= #t do
    local C, nxt, seq, L = t[i], t[i + 1], t[i + 2], tonumber(t[i + 3])
    if not onlyNew or redis.call('EXISTS', C .. ':seedmeta') == 0 then writeSeed(C, nxt, seq, t, i + 4, i + 3 + L) end
    i = i + 4 + L
  end
end
`;

/**
 * ARGV: P, E (unused), NEW, format, then a block per collection. Writes the seeds only when the store never held
 * data, or when NEW is an operator's `reset:` epoch; a replica joining a store seeds only collections it has never
 * held (a document that added one). Returns {1, epoch} when it seeded, {0, epoch} when it joined, {2, ''} for a
 * store that lost its data (no seed written: its replicas answer 503 until a reset). A store in another layout is
 * refused (`store_format N`), never misread.
 */
export const INIT = `${EPOCHS}${COLLECTIONS}
local format = redis.call('GET', P .. ':format')
local gone = redis.call('EXISTS', P .. ':gone') == 1
local deliberate = string.sub(NEW, 1, 6) == 'reset:'
if format and not gone and not deliberate then
  if format ~= ARGV[2] then return redis.error_reply('store_format ' .. format) end
  local current = redis.call('GET', P .. ':epoch')
  if not current then current = NEW; redis.call('SET', P .. ':epoch', NEW) end
  seedBlocks(ARGV, 3, true)
  return { 0, current }
end
if gone and not deliberate then return { 2, '' } end
seedBlocks(ARGV, 3, false)
redis.call('SET', P .. ':format', ARGV[2])
${REOPEN}
return { 1, NEW }
`;

/**
 * Layout 2 → 3 in place, in one script: layout 2's one collection of v1 pets becomes the collection C (renamed
 * keys, its status sets become filter sets with suffix ARGV[4] .. status), and P:lost is set so that a layout-2
 * replica still running answers 503 rather than writing keys layout 3 no longer reads. ARGV: P, E, NEW, C, the
 * status suffix's head. Returns 1, or 0 when the store is not in layout 2 (another replica upgraded it).
 */
export const UPGRADE_2 = `${EPOCHS}${ITEMS}
if redis.call('GET', P .. ':format') ~= '2' then return 0 end
local C, head = ARGV[2], ARGV[3]
local function move(from, to) if redis.call('EXISTS', from) == 1 then redis.call('RENAME', from, to) end end
move(P .. ':pets', C .. ':items')
move(P .. ':ids', C .. ':ids')
move(P .. ':next', C .. ':next')
move(P .. ':bytes', C .. ':bytes')
redis.call('SET', C .. ':seq', '0')
for _, s in ipairs(redis.call('SMEMBERS', P .. ':statuses')) do
  local suffix = head .. s
  local key = C .. ':f:' .. suffix
  move(P .. ':status:' .. s, key)
  redis.call('SADD', C .. ':ix', key)
  local members = redis.call('ZRANGE', key, 0, -1)
  for _, member in ipairs(members) do redis.call('HSET', C .. ':keys', member, encodeKeys({ suffix })) end
end
redis.call('DEL', P .. ':statuses')
-- The seed's triples (member, status, text) as records; the counter after them as layout 2 computed it.
local seed = redis.call('LRANGE', P .. ':seed', 0, -1)
local records, highest = {}, nil
for i = 1, #seed, 3 do
  local member, status, text = seed[i], seed[i + 1], seed[i + 2]
  for _, v in ipairs({ member, '0', text, '', '' }) do records[#records + 1] = v end
  if status == '' then records[#records + 1] = '0' else records[#records + 1] = '1'; records[#records + 1] = head .. status end
  if string.sub(member, 1, 1) == 'p' and (highest == nil or member > highest) then highest = member end
end
redis.call('DEL', P .. ':seed')
for a = 1, #records, 1000 do redis.call('RPUSH', C .. ':seed', unpack(records, a, math.min(a + 999, #records))) end
local nxt = '1'
if highest then
  redis.call('SET', C .. ':seednext', string.match(string.sub(highest, 2), '^0*(%d+)$'))
  redis.call('INCR', C .. ':seednext')
  nxt = redis.call('GET', C .. ':seednext')
  redis.call('DEL', C .. ':seednext')
end
redis.call('HSET', C .. ':seedmeta', 'next', nxt, 'seq', '0')
redis.call('SET', P .. ':format', '3')
redis.call('SET', P .. ':lost', 'upgraded to key layout 3')
return 1
`;

/**
 * ARGV: P, C, maxItems, maxBytes, id kind (int64 | string | uuid), the text's head (`{"id":`), its tail after the
 * id (`"name":…}` or `}`), the parent's id as JSON text or "", the UUID to use or "", then for an id the client
 * named (else four ""): its JSON text, its member, the counter after it in decimal digits (or "": a string or
 * negative id leaves the counter), its own text for a negative int64 (or ""); then the item's C:f: suffixes (its
 * filter values' and its parent's).
 * Returns the stored text. The id is taken only when the item fits, so a refused create uses none; an int64 or
 * string counter at 2^63 - 1 is refused (the id after it would not be an int64); a named id an item has is refused
 * (`store_named`), and the counter then goes above it, compared as digits (Lua would round an int64).
 */
export const CREATE = `${GUARD}${ITEMS}
local C, maxItems, maxBytes, kind = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local head, tail, parent, given = ARGV[6], ARGV[7], ARGV[8], ARGV[9]
local named, namedMember, after, own = ARGV[10], ARGV[11], ARGV[12], ARGV[13]
local count = redis.call('ZCARD', C .. ':ids')
if count >= maxItems then return redis.error_reply('store_full count ' .. count) end
local id, member, sid
if named ~= '' then
  id, member = named, namedMember
  if redis.call('HEXISTS', C .. ':items', member) == 1 then return redis.error_reply('store_named') end
elseif kind == 'uuid' then
  id = '"' .. given .. '"'
  member = 's' .. given
  if redis.call('HEXISTS', C .. ':items', member) == 1 then return redis.error_reply('store_taken') end
else
  sid = redis.call('GET', C .. ':next') or '1'
  if kind == 'string' then
    -- A seed may hold "7" already: the counter skips ids in use, so an id is never handed out twice.
    while redis.call('HEXISTS', C .. ':items', 's' .. sid) == 1 and sid ~= '9223372036854775807' do
      redis.call('SET', C .. ':next', sid)
      redis.call('INCR', C .. ':next')
      sid = redis.call('GET', C .. ':next')
    end
    id = '"' .. sid .. '"'
    member = 's' .. sid
  else
    id = sid
    member = 'p' .. string.rep('0', 19 - #sid) .. sid
  end
  if sid == '9223372036854775807' then return redis.error_reply('store_full ids') end
end
local text = head .. id .. (tail == '}' and '}' or (',' .. tail))
local used = tonumber(redis.call('GET', C .. ':bytes') or '0')
if used + #text > maxBytes then return redis.error_reply('store_full bytes ' .. used .. ' ' .. #text) end
if named ~= '' then
  local next = redis.call('GET', C .. ':next') or '1'
  if after ~= '' and (#after > #next or (#after == #next and after > next)) then redis.call('SET', C .. ':next', after) end
elseif kind ~= 'uuid' then
  redis.call('SET', C .. ':next', sid)
  redis.call('INCR', C .. ':next')
end
local score = 0
if kind ~= 'int64' then score = redis.call('INCR', C .. ':seq') end
local idx = {}
for i = 14, #ARGV do idx[#idx + 1] = ARGV[i] end
putItem(C, member, score, text, parent, own, idx)
redis.call('INCRBY', C .. ':bytes', #text)
return text
`;

/**
 * ARGV: P, C, limit, the number of filter groups, then each group: its number of suffixes and the suffixes (an item
 * matches a group when it is in any of its sets, and the list when it matches every group). One group of one value
 * reads its set by rank, O(log N + limit); more walk the smallest one-value set (else every item) in order and test
 * the others by ZSCORE, stopping at `limit`. The texts in ascending id order.
 */
export const LIST = `${GUARD}
local C, limit, ngroups = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local groups, i = {}, 5
for g = 1, ngroups do
  local n = tonumber(ARGV[i])
  local keys = {}
  for v = 1, n do keys[v] = C .. ':f:' .. ARGV[i + v] end
  groups[g] = keys
  i = i + 1 + n
end
local driver, chosen = C .. ':ids', nil
if ngroups == 1 and #groups[1] == 1 then
  driver, chosen = groups[1][1], 1
elseif ngroups > 1 then
  local best
  for g, keys in ipairs(groups) do
    if #keys == 1 then
      local size = redis.call('ZCARD', keys[1])
      if best == nil or size < best then best, driver, chosen = size, keys[1], g end
    end
  end
end
local rest = {}
for g, keys in ipairs(groups) do if g ~= chosen then rest[#rest + 1] = keys end end
local members
if #rest == 0 then
  members = redis.call('ZRANGE', driver, 0, limit - 1)
else
  members = {}
  local start = 0
  while #members < limit do
    local batch = redis.call('ZRANGE', driver, start, start + 499)
    if #batch == 0 then break end
    for _, m in ipairs(batch) do
      local all = true
      for _, keys in ipairs(rest) do
        local any = false
        for _, key in ipairs(keys) do
          if redis.call('ZSCORE', key, m) then any = true; break end
        end
        if not any then all = false; break end
      end
      if all then
        members[#members + 1] = m
        if #members >= limit then break end
      end
    end
    start = start + 500
  end
end
if #members <= 1000 then return #members == 0 and {} or redis.call('HMGET', C .. ':items', unpack(members)) end
local out = {}
for a = 1, #members, 1000 do
  for _, text in ipairs(redis.call('HMGET', C .. ':items', unpack(members, a, math.min(a + 999, #members)))) do out[#out + 1] = text end
end
return out
`;

/** ARGV: P, C, member, the parent's suffix or "". The item's text, or nil (none, or another parent's). */
export const GET = `${GUARD}
local C, member, parent = ARGV[2], ARGV[3], ARGV[4]
if parent ~= '' and not redis.call('ZSCORE', C .. ':f:' .. parent, member) then return false end
return redis.call('HGET', C .. ':items', member)
`;

/**
 * ARGV: P, C, member, the parent's suffix or "", the text the change was computed from, the new text, maxBytes,
 * then the new text's filter suffixes (the parent's is kept). 0 when the item is gone; `store_changed` when another
 * write changed it since it was read (the caller reads it again and recomputes: no write is lost).
 */
export const UPDATE = `${GUARD}${ITEMS}
local C, member, parent, expected, text, maxBytes = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], tonumber(ARGV[7])
if not inParent(C, member, parent) then return 0 end
local current = redis.call('HGET', C .. ':items', member)
if not current then return 0 end
if current ~= expected then return redis.error_reply('store_changed') end
local used = tonumber(redis.call('GET', C .. ':bytes') or '0') - #current
if used + #text > maxBytes then return redis.error_reply('store_full bytes ' .. used .. ' ' .. #text) end
local score = redis.call('ZSCORE', C .. ':ids', member)
local kept = {}
for _, suffix in ipairs(decodeKeys(redis.call('HGET', C .. ':keys', member))) do
  if string.sub(suffix, 1, 2) == 'p:' then kept[#kept + 1] = suffix else redis.call('ZREM', C .. ':f:' .. suffix, member) end
end
for i = 8, #ARGV do
  local key = C .. ':f:' .. ARGV[i]
  redis.call('ZADD', key, score, member)
  redis.call('SADD', C .. ':ix', key)
  kept[#kept + 1] = ARGV[i]
end
if #kept > 0 then redis.call('HSET', C .. ':keys', member, encodeKeys(kept)) else redis.call('HDEL', C .. ':keys', member) end
redis.call('HSET', C .. ':items', member, text)
redis.call('INCRBY', C .. ':bytes', #text - #current)
return 1
`;

/**
 * ARGV: P, C, member, the parent's suffix or "", then pairs (collection, nested collection) naming where nested
 * items live. The removed item's text, or nil; every item nested under it (at any depth) goes with it.
 */
export const DELETE = `${GUARD}${ITEMS}
local C, member, parent = ARGV[2], ARGV[3], ARGV[4]
if not inParent(C, member, parent) then return false end
local edges = {}
for i = 5, #ARGV, 2 do edges[#edges + 1] = { ARGV[i], ARGV[i + 1] } end
return removeItem(C, member, edges) or false
`;

/** ARGV: P, C. How many items, or `store_empty`. */
export const COUNT = `${GUARD}
return redis.call('ZCARD', ARGV[2] .. ':ids')
`;

/** ARGV: P, then the collections' keys: each back to its seed, at one instant; ids continue after the seed's. */
export const RESET = `${GUARD}${COLLECTIONS}
for i = 2, #ARGV do resetCollection(ARGV[i]) end
${REOPEN}
return 1
`;

/** ARGV: P, format, then a block per collection: the seeds replaced (a fixtures reload), then a reset to them. */
export const RESEED = `${EPOCHS}${COLLECTIONS}
seedBlocks(ARGV, 3, false)
redis.call('SET', P .. ':format', ARGV[2])
${REOPEN}
return 1
`;

/** ARGV: P, then a block per collection (next and seq already above every id: the caller computes them exactly). */
export const RESTORE = `${GUARD}${COLLECTIONS}
local i = 2
while i <= #ARGV do
  local C, nxt, seq, L = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
  writeCollection(C, nxt, seq, ARGV, i + 4, i + 3 + L)
  i = i + 4 + L
end
${REOPEN}
return 1
`;

/** ARGV: P, C. The counters, the number of items, then every item's text and its parent's ("" none), at one instant. */
export const SNAPSHOT = `${GUARD}
local C = ARGV[2]
local out = { redis.call('GET', C .. ':next') or '1', redis.call('GET', C .. ':seq') or '0' }
local ids = redis.call('ZRANGE', C .. ':ids', 0, -1)
out[3] = tostring(#ids)
for i = 1, #ids, 1000 do
  for _, text in ipairs(redis.call('HMGET', C .. ':items', unpack(ids, i, math.min(i + 999, #ids)))) do out[#out + 1] = text end
end
for i = 1, #ids, 1000 do
  for _, p in ipairs(redis.call('HMGET', C .. ':parents', unpack(ids, i, math.min(i + 999, #ids)))) do out[#out + 1] = p or '' end
end
return out
`;
