-- wrk script: the method, headers and body come from the environment (WRK_METHOD, WRK_HEADERS as "k: v|k: v",
-- WRK_BODY), and the summary is printed as one JSON line for bench/load.mjs.
wrk.method = os.getenv("WRK_METHOD") or "GET"
wrk.body = os.getenv("WRK_BODY")
for pair in string.gmatch(os.getenv("WRK_HEADERS") or "", "[^|]+") do
  local name, value = string.match(pair, "^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end

-- WRK_PATH_PREFIX: each request goes to the prefix and the next number from WRK_FIRST (one thread: one counter), so
-- that a DELETE never meets an id it removed before.
local prefix = os.getenv("WRK_PATH_PREFIX")
if prefix then
  local counter = tonumber(os.getenv("WRK_FIRST") or "1")
  request = function()
    local path = prefix .. counter
    counter = counter + 1
    return wrk.format(nil, path)
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"duration_us":%d,"status":%d,"errors":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout, latency:percentile(99)))
end
