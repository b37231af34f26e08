-- Work loops timed by examples/charge_rates: each `measure` command runs one of them `n` times.
-- (Results are kept in a local and dropped, so only the work is measured.)
local unit, unit_reach = nil, 0
-- The unit on the map with the largest reach: a search that settles many hexes.
local function first_unit()
  if unit then return unit end
  for _, id in ipairs(hex.units.list("id")) do
    local ok, reach = pcall(hex.path.reach, id)
    local count = 0
    if ok then for _ in pairs(reach) do count = count + 1 end end
    if count > unit_reach then unit, unit_reach = id, count end
  end
  return unit
end

local big = {}
local function text(bytes)
  big[bytes] = big[bytes] or string.rep("abcdefgh", bytes // 8)
  return big[bytes]
end

local function strings(count)
  local t = {}
  for i = 1, count do t[i] = "x" .. i end
  return t
end

-- Live small tables (about 64 MB of heap), kept so that a full collection has them to walk.
local heap = nil

local loops = {
  -- VM work alone: a loop body of table reads and writes, arithmetic and a call
  vm_mix = function(n)
    local t, f = { a = 1 }, function(x) return x + 1 end
    for i = 1, n do t.a = f(t.a) + i % 3 end
  end,
  reach = function(n)
    local u = first_unit()
    for _ = 1, n do local _ = hex.path.reach(u) end
  end,
  sizes = function()
    first_unit()
    error(("reach settles %d hexes; the map has %d hexes; %d units"):format(
      unit_reach, #hex.map.hexes(), #hex.units.all()), 0)
  end,
  find_1mb = function(n)
    local s = text(2 ^ 20)
    for _ = 1, n do local _ = s:find("z") end
  end,
  map_hexes = function(n)
    for _ = 1, n do local _ = hex.map.hexes() end
  end,
  units_all = function(n)
    for _ = 1, n do local _ = hex.units.all() end
  end,
  rep_16mb = function(n)
    for _ = 1, n do local _ = string.rep("x", 16 * 2 ^ 20) end
  end,
  upper_1mb = function(n)
    local s = text(2 ^ 20)
    for _ = 1, n do local _ = s:upper() end
  end,
  reverse_1mb = function(n)
    local s = text(2 ^ 20)
    for _ = 1, n do local _ = s:reverse() end
  end,
  sub_1mb = function(n)
    local s = text(2 ^ 20)
    for _ = 1, n do local _ = s:sub(2) end
  end,
  find_plain_1mb = function(n)
    local s = text(2 ^ 20)
    for _ = 1, n do local _ = s:find("z", 1, true) end
  end,
  byte_100k = function(n)
    local s = text(100000)
    for _ = 1, n do local _ = s:byte(1, -1) end
  end,
  utf8_len_1mb = function(n)
    local s = text(2 ^ 20)
    for _ = 1, n do local _ = utf8.len(s) end
  end,
  concat_100k = function(n)
    local t = strings(100000)
    for _ = 1, n do local _ = table.concat(t, ",") end
  end,
  unpack_100k = function(n)
    local t = strings(100000)
    for _ = 1, n do local _ = select("#", table.unpack(t)) end
  end,
  sort_100k = function(n)
    for _ = 1, n do
      local t = {}
      for i = 1, 100000 do t[i] = (i * 7919) % 100003 end
      table.sort(t)
    end
  end,
  grow_heap = function()
    heap = {}
    for i = 1, 1000000 do heap[i] = { i, tostring(i) } end
  end,
  collect_heap = function(n)
    for _ = 1, n do collectgarbage() end
    -- (collectgarbage("count") is refused in rules: the heap's size is counted as it was built,
    -- a million tables of two values and a million strings, 139 MB in session 17)
    error("the heap: 1 000 000 tables {i, tostring(i)}", 0)
  end,
  step_heap = function(n)
    for _ = 1, n do collectgarbage("step") end
  end,
  fill_100k = function(n)
    for _ = 1, n do
      local t = {}
      for i = 1, 100000 do t[i] = (i * 7919) % 100003 end
    end
  end,
}

hex.commands.define("measure", {
  resolve = function(cmd)
    loops[cmd.loop](cmd.n)
    return {}
  end,
})
