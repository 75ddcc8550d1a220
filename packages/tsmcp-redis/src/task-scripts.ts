/**
 * The Lua scripts of the Redis `TaskStore`, one per operation, each atomic on the Redis server.
 *
 * A task is the hash `{keyPrefix}task:{taskId}`: one field per `TaskRecord` fact (its value JSON;
 * `lease` always as `{"holder":…,"expiresAtMs":…}`), one field `in:{key}` per outstanding input
 * request and `ans:{key}` per answer not yet taken, and two fields of the store's own: `.o` (the
 * owner's key base) and `.e` (the expiry, epoch milliseconds, empty for none), with PEXPIREAT at
 * the expiry. The owner's key base `{keyPrefix}tasks:{owner}` is a sorted set of the owner's task
 * ids scored by `createdAtMs` (what `list` reads); `{base}:exp` holds the same ids scored by expiry
 * and `{base}:active` the non-terminal ones scored by the earlier of their expiry and their lease's
 * `expiresAtMs` (what the per-owner bound counts: a task of a replica that stopped renewing its
 * lease stops counting once the lease lapsed).
 * Scripts read the time from Redis (`TIME`), the clock PEXPIREAT follows, and a task is gone from
 * its expiry on even before Redis removed the key.
 */

/** Helpers every script starts with. */
const PRELUDE = `local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function ms(n) return string.format('%d', n) end
local function live(key, now)
  local exp = redis.call('HGET', key, '.e')
  if not exp then return false end
  return exp == '' or now < tonumber(exp)
end
local TERMINAL = { ['"completed"'] = true, ['"failed"'] = true, ['"cancelled"'] = true }
local function holder_of(lease)
  if not lease then return nil end
  return cjson.decode(lease).holder
end
local function slot_until(expiry, lease_expiry)
  local at = math.huge
  if expiry and expiry ~= '' then at = tonumber(expiry) end
  if type(lease_expiry) == 'number' and lease_expiry < at then at = lease_expiry end
  if at == math.huge then return '+inf' end
  return string.format('%.17g', at)
end
local function owner_expiry(base)
  local top = redis.call('ZRANGE', base .. ':exp', -1, -1, 'WITHSCORES')
  if #top == 0 then return end
  for _, key in ipairs({ base, base .. ':exp', base .. ':active' }) do
    if top[2] == 'inf' then redis.call('PERSIST', key)
    else redis.call('PEXPIREAT', key, ms(math.ceil(tonumber(top[2])))) end
  end
end
local function sweep(base, now)
  local gone = redis.call('ZRANGEBYSCORE', base .. ':exp', '-inf', ms(now), 'LIMIT', 0, 1000)
  if #gone == 0 then return end
  redis.call('ZREM', base, unpack(gone))
  redis.call('ZREM', base .. ':exp', unpack(gone))
  redis.call('ZREM', base .. ':active', unpack(gone))
end
`;

/**
 * KEYS: task, owner base, base:exp, base:active. ARGV: member, createdAtMs, expiry ('' none),
 * maxActivePerOwner, '1' when the record is terminal, the lease's expiry ('' none), then
 * field/value pairs. Answers `created`, `owner_limit` or `exists`. The bound counts the members of
 * base:active scored after now: the owner's non-terminal tasks neither expired nor with a lapsed
 * lease. It is read before the first write, so a Redis out of memory refuses the task before
 * anything of it is written.
 */
export const CREATE = `${PRELUDE}
local now = now_ms()
if live(KEYS[1], now) then return 'exists' end
if redis.call('ZCOUNT', KEYS[4], '(' .. ms(now), '+inf') >= tonumber(ARGV[4]) then return 'owner_limit' end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DEL', KEYS[1]) end
redis.call('HSET', KEYS[1], '.o', KEYS[2], '.e', ARGV[3], unpack(ARGV, 7))
local score = '+inf'
if ARGV[3] ~= '' then
  score = ARGV[3]
  redis.call('PEXPIREAT', KEYS[1], ms(math.ceil(tonumber(ARGV[3]))))
else
  redis.call('PERSIST', KEYS[1])
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], score, ARGV[1])
if ARGV[5] ~= '1' then redis.call('ZADD', KEYS[4], slot_until(ARGV[3], tonumber(ARGV[6])), ARGV[1]) end
sweep(KEYS[2], now)
owner_expiry(KEYS[2])
return 'created'`;

/** KEYS: task. The hash's fields, or nil when the task is unknown or expired. */
export const GET = `${PRELUDE}
if not live(KEYS[1], now_ms()) then return false end
return redis.call('HGETALL', KEYS[1])`;

/**
 * KEYS: task. ARGV: member, expected owner (JSON, '' none), '1' when a lease holder is expected,
 * that holder, the exact lease expected (JSON, '' none), '1' when the change is to a terminal
 * status, the new ttlMs ('' unchanged, 'null', or milliseconds), the count n of fields to clear,
 * those n fields, then field/value pairs to set. The fields after the change, or nil when the
 * task is unknown, expired, terminal, or a precondition fails.
 */
export const UPDATE = `${PRELUDE}
local now = now_ms()
if not live(KEYS[1], now) then return false end
local f = redis.call('HMGET', KEYS[1], 'status', 'owner', 'lease', '.o', 'createdAtMs')
if TERMINAL[f[1]] then return false end
if ARGV[2] ~= '' and f[2] ~= ARGV[2] then return false end
if ARGV[3] == '1' and holder_of(f[3]) ~= ARGV[4] then return false end
if ARGV[5] ~= '' and f[3] ~= ARGV[5] then return false end
local cleared = tonumber(ARGV[8])
if cleared > 0 then redis.call('HDEL', KEYS[1], unpack(ARGV, 9, 8 + cleared)) end
if #ARGV > 8 + cleared then redis.call('HSET', KEYS[1], unpack(ARGV, 9 + cleared)) end
local base = f[4]
if ARGV[6] == '1' then
  local drop = { 'lease' }
  for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
    local head = string.sub(name, 1, 4)
    if string.sub(head, 1, 3) == 'in:' or head == 'ans:' then table.insert(drop, name) end
  end
  redis.call('HDEL', KEYS[1], unpack(drop))
  redis.call('ZREM', base .. ':active', ARGV[1])
end
if ARGV[7] ~= '' then
  local score = '+inf'
  if ARGV[7] == 'null' then
    redis.call('PERSIST', KEYS[1])
    redis.call('HSET', KEYS[1], '.e', '')
  else
    local expiry = tonumber(f[5]) + tonumber(ARGV[7])
    score = string.format('%.17g', expiry)
    redis.call('HSET', KEYS[1], '.e', score)
    redis.call('PEXPIREAT', KEYS[1], ms(math.ceil(expiry)))
  end
  redis.call('ZADD', base .. ':exp', score, ARGV[1])
  owner_expiry(base)
end
if ARGV[6] ~= '1' then
  local after = redis.call('HMGET', KEYS[1], '.e', 'lease')
  local lease_expiry = nil
  if after[2] then lease_expiry = cjson.decode(after[2]).expiresAtMs end
  redis.call('ZADD', base .. ':active', slot_until(after[1], lease_expiry), ARGV[1])
end
return redis.call('HGETALL', KEYS[1])`;

/**
 * KEYS: task. ARGV: the caller's owner (JSON), lastUpdatedAtMs (JSON), then key/answer pairs. The
 * fields after the change (a terminal task's unchanged), or nil when the task is unknown, expired
 * or of another owner.
 */
export const ADD_RESPONSES = `${PRELUDE}
if not live(KEYS[1], now_ms()) then return false end
local f = redis.call('HMGET', KEYS[1], 'owner', 'status')
if f[1] ~= ARGV[1] then return false end
if TERMINAL[f[2]] then return redis.call('HGETALL', KEYS[1]) end
local changed = false
for i = 3, #ARGV, 2 do
  if redis.call('HDEL', KEYS[1], 'in:' .. ARGV[i]) == 1 then
    redis.call('HSET', KEYS[1], 'ans:' .. ARGV[i], ARGV[i + 1])
    changed = true
  end
end
if changed then
  local left = false
  for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
    if string.sub(name, 1, 3) == 'in:' then left = true break end
  end
  if not left then redis.call('HSET', KEYS[1], 'status', '"working"') end
  redis.call('HSET', KEYS[1], 'lastUpdatedAtMs', ARGV[2])
end
return redis.call('HGETALL', KEYS[1])`;

/** KEYS: task. ARGV: the lease holder. Removes and returns the answers as key/answer pairs. */
export const TAKE_RESPONSES = `${PRELUDE}
if not live(KEYS[1], now_ms()) then return {} end
if holder_of(redis.call('HGET', KEYS[1], 'lease')) ~= ARGV[1] then return {} end
local all = redis.call('HGETALL', KEYS[1])
local taken, names = {}, {}
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 4) == 'ans:' then
    table.insert(taken, string.sub(all[i], 5))
    table.insert(taken, all[i + 1])
    table.insert(names, all[i])
  end
end
if #names > 0 then redis.call('HDEL', KEYS[1], unpack(names)) end
return taken`;

/**
 * KEYS: owner base, base:exp, base:active. ARGV: the task key prefix, limit, and the cursor's
 * score and member ('' for the first page). Answers {more (0/1), last score, last member, then
 * each task's fields}, newest first; members whose task is gone are removed.
 */
export const LIST = `${PRELUDE}
local function bytes_before(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end
local now = now_ms()
sweep(KEYS[1], now)
local limit = tonumber(ARGV[2])
local top = ARGV[3] == '' and '+inf' or ARGV[3]
local tasks, gone = {}, {}
local more, last_score, last_member = 0, '', ''
local offset = 0
while more == 0 do
  local batch = redis.call('ZREVRANGEBYSCORE', KEYS[1], top, '-inf', 'WITHSCORES', 'LIMIT', offset, 64)
  if #batch == 0 then break end
  offset = offset + #batch / 2
  for i = 1, #batch, 2 do
    local member, score = batch[i], batch[i + 1]
    if ARGV[3] == '' or tonumber(score) < tonumber(ARGV[3]) or bytes_before(member, ARGV[4]) then
      local key = ARGV[1] .. member
      if not live(key, now) then
        table.insert(gone, member)
      elseif #tasks == limit then
        more = 1
        break
      else
        table.insert(tasks, redis.call('HGETALL', key))
        last_score, last_member = score, member
      end
    end
  end
end
if #gone > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone))
  redis.call('ZREM', KEYS[2], unpack(gone))
  redis.call('ZREM', KEYS[3], unpack(gone))
end
local reply = { more, last_score, last_member }
for _, task in ipairs(tasks) do table.insert(reply, task) end
return reply`;
