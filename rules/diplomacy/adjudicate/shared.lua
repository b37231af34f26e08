-- diplomacy.adjudicate.shared -- what every phase of the adjudication uses: sorted unit and
-- centre lists, the memoised flag lists, centre ownership and the phase sequence (next_phase).
local map = require("diplomacy.map")

local M = {}

local sort = table.sort
-- (one empty table for every part: the movement phase tells "nothing" from a real list by identity)
local EMPTY = {}
M.EMPTY = EMPTY

local function is_sorted(l)
  for k = 2, #l do
    if l[k - 1] > l[k] then return false end
  end
  return true
end

local function sorted_copy(l)
  local c = {}
  for k = 1, #l do c[k] = l[k] end
  sort(c)
  return c
end
M.sorted_copy = sorted_copy

-- power names of a {POWER = ...} table, in output order (board powers first, sorted)
local function powers_of(cm, t)
  local extra
  for p in pairs(t or EMPTY) do
    if not cm.power_rank[p] then
      extra = extra or {}
      extra[#extra + 1] = p
    end
  end
  if not extra then return cm.powers end
  local all = {}
  for _, p in ipairs(cm.powers) do all[#all + 1] = p end
  for _, p in ipairs(extra) do all[#all + 1] = p end
  sort(all)
  return all
end
M.powers_of = powers_of

-- sorted-ness of a list of unit strings (integer ranks from the compiled map; strcoll is slow)
local function units_sorted(cm, l)
  local rank = cm.unit_rank
  local prev = 0
  for k = 1, #l do
    local r = rank[l[k]]
    if not r or r < prev then return false end
    prev = r
  end
  return true
end
M.units_sorted = units_sorted

local function unit_list_less(cm)
  local rank = cm.unit_rank
  return function(a, b)
    local ra, rb = rank[a], rank[b]
    if ra and rb then return ra < rb end
    return a < b
  end
end

local function sort_units(cm, l)
  if not units_sorted(cm, l) then sort(l, unit_list_less(cm)) end
  return l
end
M.sort_units = sort_units

-- results: append one power's entries, sorted by unit string then order sequence (the
-- order in which they were given). `seq` is a side table: entries may be shared constants.
local function push_sorted(cm, out, list, seq)
  local rank = cm.unit_rank
  local ok = true
  for k = 2, #list do
    local a, b = list[k - 1], list[k]
    local ra, rb = rank[a.unit], rank[b.unit]
    if not ra or not rb or ra > rb or (ra == rb and ((a.seq or 0) > (b.seq or 0))) then
      ok = false
      break
    end
  end
  if not ok then
    sort(list, function(a, b)
      if a.unit ~= b.unit then return a.unit < b.unit end
      return (a.seq or 0) < (b.seq or 0)
    end)
  end
  local n = #out
  for k = 1, #list do
    local e = list[k]
    if e.seq then e.seq = nil end
    out[n + k] = e
  end
end
M.push_sorted = push_sorted

-- Shared constant flag lists (result tables are read-only for the host; see docs/diplomacy.md).
local FLAGS = {}
local function flags_of(a, b)
  local ka = a or ""
  local t = FLAGS[ka]
  if not t then t = {}; FLAGS[ka] = t end
  local kb = b or ""
  local f = t[kb]
  if not f then
    f = {}
    if a then f[#f + 1] = a end
    if b then f[#f + 1] = b end
    t[kb] = f
  end
  return f
end
M.flags_of = flags_of

-- centres {POWER = {...}} -> owner map, and back
local function owner_map(centers)
  local own = {}
  for p, l in pairs(centers or EMPTY) do
    for k = 1, #l do own[l[k]] = p end
  end
  return own
end
M.owner_map = owner_map

local function centers_from_owner(cm, own)
  local out = {}
  for _, sc in ipairs(cm.sc_list) do
    local p = own[sc]
    if p then
      local l = out[p]
      if not l then l = {}; out[p] = l end
      l[#l + 1] = sc
    end
  end
  return out
end

-- (the very table given when every list is sorted: result tables are read-only)
local function sorted_centers(centers)
  if not centers then return {} end
  local out = centers
  for p, l in pairs(centers) do
    -- (is_sorted, inlined)
    local prev = l[1]
    for k = 2, #l do
      local x = l[k]
      if prev > x then
        if out == centers then
          out = {}
          for q, ql in pairs(centers) do out[q] = ql end
        end
        out[p] = sorted_copy(l)
        break
      end
      prev = x
    end
  end
  return out
end
M.sorted_centers = sorted_centers

-- units {POWER = {"A PAR", ...}}: every list sorted
local function sorted_units(units)
  local out = {}
  for p, l in pairs(units) do
    out[p] = is_sorted(l) and l or sorted_copy(l)
  end
  return out
end
M.sorted_units = sorted_units

-- centre ownership after Fall: every supply centre holding a unit goes to the unit's power
local function update_centers(cm, units, centers)
  local own = owner_map(centers)
  for p, l in pairs(units) do
    for k = 1, #l do
      local u = map.parse_unit(cm, l[k])
      if u and cm.prov[u.prov].sc then own[u.prov] = p end
    end
  end
  return centers_from_owner(cm, own)
end
M.update_centers = update_centers

local function count_centers(centers, p)
  local l = centers[p]
  return l and #l or 0
end

M.count_centers = count_centers

local function winner_of(cm, centers)
  for _, p in ipairs(cm.powers) do
    if count_centers(centers, p) >= cm.victory_centers then return p end
  end
  return nil
end

M.winner_of = winner_of

-- The power that has won with `centers` (power -> its centres), or nil: the standard rule is the
-- first power, in the map's order, holding the map's `victory_centers` (DIP-1). A variant
-- replaces `winner` (a count of its own, a shared victory is not one power and stays nil).
function M.winner(rules, cm, centers)
  return winner_of(cm, centers)
end

-- Where `power` may build (standard: its home centres, DATC 6.J; a variant may widen it): a set of
-- provinces, built only where the power owns the centre and no unit stands.
function M.build_sites(rules, cm, power, centers)
  return cm.home_set[power] or EMPTY
end

-- does the adjustment phase have anything to do for this board / ownership? (`rules` gives the
-- build sites: a variant that builds elsewhere plays the phase when a build is possible there)
local function adjustments_needed(rules, cm, units, centers)
  local occupied
  for _, p in ipairs(powers_of(cm, units)) do
    local nu = units[p] and #units[p] or 0
    local nc = count_centers(centers, p)
    if nu > nc then return true end
    if nc > nu then
      if not occupied then
        occupied = {}
        for _, l in pairs(units) do
          for k = 1, #l do
            local u = map.parse_unit(cm, l[k])
            if u then occupied[u.prov] = true end
          end
        end
      end
      local sites = rules.build_sites(rules, cm, p, centers)
      for _, c in ipairs(centers[p] or EMPTY) do
        if sites[c] and not occupied[c] then return true end
      end
    end
  end
  return false
end
M.adjustments_needed = adjustments_needed

-- the phase after `phase`, given the board after it; updates centres at the end of Fall.
-- retreat_pending: the retreat phase that follows a movement phase has something to do.
-- (the next-phase strings are memoised on the phase's memo record: r.R the retreat phase, r.F the
-- Fall movement, r.W the winter adjustments, r.N the next Spring)
function M.next_phase(rules, cm, phase, units, centers, retreat_pending)
  local r = map.phase_rec(phase)
  local s, y, k = r[1], r[2], r[3]
  if k == "M" and retreat_pending then
    local x = r.R
    if not x then x = s .. y .. "R"; r.R = x end
    return x, centers
  end
  if s == "S" then
    local x = r.F
    if not x then x = "F" .. y .. "M"; r.F = x end
    return x, centers
  end
  if s == "F" then
    centers = update_centers(cm, units, centers)
    if adjustments_needed(rules, cm, units, centers) then
      local x = r.W
      if not x then x = "W" .. y .. "A"; r.W = x end
      return x, centers
    end
  end
  local x = r.N
  if not x then x = "S" .. (y + 1) .. "M"; r.N = x end
  return x, centers
end

-- The result of a retreat or an adjustment phase, and the position after it: every power's
-- result entries in power order (each power's list sorted by unit, push_sorted), the disbanded
-- units sorted, the winner if any. `extra`: more fields for the next position (a variant's).
function M.close_phase(rules, cm, position, entries, units, disbanded, nph, centers, extra)
  local results = {}
  for _, p in ipairs(powers_of(cm, entries)) do
    if entries[p] then push_sorted(cm, results, entries[p]) end
  end
  sort(disbanded)
  local next_pos = { phase = nph, units = units, centers = centers }
  if extra then
    for k, v in pairs(extra) do next_pos[k] = v end
  end
  local w = rules.winner(rules, cm, centers, nph)
  if w then next_pos.winner = w end
  local result = {
    phase = position.phase, results = results, units = units, dislodged = {},
    disbanded = disbanded, centers = centers, next_phase = nph,
  }
  return result, next_pos
end

return M
