-- diplomacy.map -- the board table the Diplomacy rules expect, and its compiled (indexed) form.
--
-- This file holds NO map data (see standard_board.lua for the standard map as a fallback and
-- test fixture). The host passes the board as a plain table whose field names mirror
-- /work/shared/data/diplomacy/standard_map.toml, so the TOML/JSON can be passed straight through:
--
--   board = {
--     name = "standard",                    -- optional
--     start_phase = "S1901M",               -- optional (default "S1901M")
--     victory_centers = 18,                 -- centres needed to win (default: more than half)
--     provinces = {                         -- keyed by 3-letter abbreviation ...
--       PAR = {
--         name = "Paris",                   -- optional
--         type = "land" | "sea" | "coast" | "impassable",
--         supply_center = true | false,
--         home = "FRANCE" | "" | nil,        -- power whose home centre this is
--         army = {"BUR", "GAS", ...},        -- provinces an army here can move to (no convoy)
--         fleet = {"MAO", "SPA/NC", ...},    -- locations a fleet here can move to (coast-qualified
--                                            --   when the target has split coasts); empty for land
--                                            --   provinces and split-coast provinces
--         coasts = {} | {"NC", "SC"},        -- coast names of a split-coast province
--         fleet_by_coast = { NC = {...}, SC = {...} },  -- split-coast provinces only
--         aliases = {"PARIS"},               -- optional: other names of the province, read as
--                                            --   its abbreviation in orders (and setups)
--       }, ...
--     },
--     -- ... or, exactly as in the TOML/JSON: province = { {abbr = "PAR", ...}, ... }
--     powers = {                            -- also accepted under the TOML name `power`
--       { name = "AUSTRIA", adjective = "AUSTRIAN", home_centers = {"BUD", "TRI", "VIE"},
--         start_units = {"A BUD", "A VIE", "F TRI"}, start_centers = {"BUD", "TRI", "VIE"} }, ...
--     },
--   }
--
-- Notation: province = "PAR"; location = province or province/coast ("STP/NC"); unit = "A PAR",
-- "F STP/SC" (armies never carry a coast, a fleet in a split-coast province always does).
--
-- map.compile(board) builds the indexed structure used by the adjudicator (set lookups, no linear
-- scans). map.get(board) returns it, compiling once and caching it on the board table under the key
-- `_compiled` (the host may also keep the compiled table and pass it instead of the board).
-- The compiled table also memoises pure parses (unit strings, order strings): they depend only on
-- the string and the map, never on the game state.

local M = {}

local function set_of(list)
  local s = {}
  if list then
    for i = 1, #list do s[list[i]] = true end
  end
  return s
end

-- The province of a location, the part before its coast ("STP/NC" -> "STP"). Ids are a map's
-- own: a designer's map may name a sea "WSEA" or a province "IS" (the first three letters were
-- taken, which made such a map's orders void).
local function prov_of(loc)
  local slash = string.find(loc, "/", 1, true)
  if slash then return loc:sub(1, slash - 1) end
  return loc
end
M.prov_of = prov_of

function M.compile(board)
  local cm = {
    is_compiled = true,
    board = board,
    prov = {},            -- abbr -> {abbr, name, type, sc, home, coasts, split}
    prov_list = {},       -- sorted abbreviations
    loc_prov = {},        -- location -> province (aliases too: "LIV" -> "LVN")
    canon = {},           -- alias location -> the location it names ("LIV" -> "LVN", "SPN/NC" -> "SPA/NC")
    army_adj = {},        -- province -> set of provinces
    fleet_adj = {},       -- location -> set of locations
    fleet_prov_adj = {},  -- location -> set of provinces a fleet there can reach (any coast)
    fleet_into = {},      -- location -> province -> list of reachable locations in that province
    border = {},          -- province -> set of provinces sharing any army or fleet adjacency
    powers = {},          -- sorted power names
    power_info = {},      -- name -> board power entry
    home = {},            -- power -> list of home centre provinces (sorted)
    home_set = {},        -- power -> set
    sc_list = {},         -- sorted supply-centre provinces
    victory_centers = board.victory_centers,
    start_phase = board.start_phase or "S1901M",
    unit_cache = {},      -- memo: unit string -> parsed unit
    order_cache = {},     -- memo: order string -> parsed order
    dist_cache = {},      -- memo: civil-disorder distances
    targets_memo = nil,   -- memo: move_targets lists (built on first use)
    -- also set on first use by diplomacy.adjudicate: unit_rec (memo: unit records per power and
    -- string) and move_scratch (reused scratch arrays of a movement phase; empty between calls)
  }
  -- provinces, in either shape
  local src = {}
  if board.provinces then
    for abbr, p in pairs(board.provinces) do src[#src + 1] = { abbr, p } end
  elseif board.province then
    for _, p in ipairs(board.province) do src[#src + 1] = { p.abbr, p } end
  end
  table.sort(src, function(a, b) return a[1] < b[1] end)
  for _, e in ipairs(src) do
    local abbr, p = e[1], e[2]
    local home = p.home
    if home == "" then home = nil end
    local coasts = p.coasts or {}
    local info = {
      abbr = abbr, name = p.name or abbr, type = p.type, sc = p.supply_center and true or false,
      home = home, coasts = coasts, split = #coasts > 0,
    }
    cm.prov[abbr] = info
    cm.prov_list[#cm.prov_list + 1] = abbr
    cm.loc_prov[abbr] = abbr
    cm.army_adj[abbr] = set_of(p.army)
    cm.border[abbr] = {}
    if info.sc then cm.sc_list[#cm.sc_list + 1] = abbr end
    for _, alias in ipairs(p.aliases or {}) do
      cm.loc_prov[alias] = abbr
      cm.canon[alias] = abbr
      for _, c in ipairs(coasts) do
        cm.loc_prov[alias .. "/" .. c] = abbr
        cm.canon[alias .. "/" .. c] = abbr .. "/" .. c
      end
    end
    local locs = {}
    if info.split then
      for _, c in ipairs(coasts) do
        local loc = abbr .. "/" .. c
        cm.loc_prov[loc] = abbr
        locs[loc] = (p.fleet_by_coast or {})[c] or {}
      end
    elseif p.type == "sea" or p.type == "coast" then
      locs[abbr] = p.fleet or {}
    end
    for loc, targets in pairs(locs) do
      cm.fleet_adj[loc] = set_of(targets)
      local pa, into = {}, {}
      for _, t in ipairs(targets) do
        local tp = prov_of(t)
        pa[tp] = true
        local l = into[tp]
        if not l then l = {}; into[tp] = l end
        l[#l + 1] = t
      end
      for _, l in pairs(into) do table.sort(l) end
      cm.fleet_prov_adj[loc] = pa
      cm.fleet_into[loc] = into
    end
  end
  for abbr, p in pairs(cm.prov) do
    for q in pairs(cm.army_adj[abbr]) do cm.border[abbr][q] = true end
    local locs = {}
    if p.split then
      for _, c in ipairs(p.coasts) do locs[#locs + 1] = abbr .. "/" .. c end
    else
      locs[1] = abbr
    end
    for _, loc in ipairs(locs) do
      for q in pairs(cm.fleet_prov_adj[loc] or {}) do
        cm.border[abbr][q] = true
        if cm.border[q] then cm.border[q][abbr] = true end
      end
    end
  end
  -- powers
  local plist = board.powers or board.power or {}
  for _, pw in ipairs(plist) do
    cm.powers[#cm.powers + 1] = pw.name
    cm.power_info[pw.name] = pw
    local h = {}
    for _, c in ipairs(pw.home_centers or {}) do h[#h + 1] = c end
    table.sort(h)
    cm.home[pw.name] = h
    cm.home_set[pw.name] = set_of(h)
  end
  -- home centres declared on provinces but not on powers
  for abbr, p in pairs(cm.prov) do
    if p.home and cm.home_set[p.home] and not cm.home_set[p.home][abbr] then
      cm.home_set[p.home][abbr] = true
      local h = cm.home[p.home]
      h[#h + 1] = abbr
      table.sort(h)
    end
  end
  table.sort(cm.powers)
  -- every possible unit string, ranked in string order (integer compares instead of strcoll)
  local all = {}
  for _, abbr in ipairs(cm.prov_list) do all[#all + 1] = "A " .. abbr end
  for loc in pairs(cm.fleet_adj) do all[#all + 1] = "F " .. loc end
  table.sort(all)
  cm.unit_rank = {}
  for i, s in ipairs(all) do cm.unit_rank[s] = i end
  -- unit_str[type][location] = the unit string (no concatenation when rebuilding unit lists)
  cm.unit_str = { A = {}, F = {} }
  for _, s in ipairs(all) do cm.unit_str[s:sub(1, 1)][s:sub(3)] = s end
  cm.power_rank = {}
  for i, name in ipairs(cm.powers) do cm.power_rank[name] = i end
  if not cm.victory_centers then cm.victory_centers = #cm.sc_list // 2 + 1 end
  return cm
end

-- The compiled map for `board` (compiled once, cached on the board table).
function M.get(board)
  if board.is_compiled then return board end
  local cm = board._compiled
  if not cm then
    cm = M.compile(board)
    board._compiled = cm
  end
  return cm
end

-- Parse a unit string ("A PAR", "F STP/SC") -> {type=, loc=, prov=, str=} or nil. Memoised.
local UNIT_MEMO_MAX = 4096
function M.parse_unit(cm, s)
  local u = cm.unit_cache[s]
  if u ~= nil then return u or nil end
  -- (bounded like the order memo: emptied when it holds UNIT_MEMO_MAX strings)
  local n = (cm.unit_cache_n or 0) + 1
  if n > UNIT_MEMO_MAX then
    cm.unit_cache = {}
    n = 1
  end
  cm.unit_cache_n = n
  local t, loc = s:match("^%s*([AF])%s+([%u/]+)%s*$")
  if t and cm.loc_prov[loc] then
    loc = cm.canon[loc] or loc -- (an alias is read as the location it names)
    u = { type = t, loc = loc, prov = cm.loc_prov[loc], str = t .. " " .. loc }
  else
    u = false
  end
  cm.unit_cache[s] = u
  return u or nil
end

-- Can a unit of type t at location loc move (without convoy) to province p?
function M.reaches_prov(cm, t, loc, p)
  if t == "A" then
    local a = cm.army_adj[cm.loc_prov[loc]]
    return a ~= nil and a[p] == true
  end
  local f = cm.fleet_prov_adj[loc]
  return f ~= nil and f[p] == true
end

-- Locations a unit of type t at loc may move to without convoy (armies: provinces; fleets: each
-- reachable coast), sorted. Memoised on the compiled map: the returned list must not be mutated.
local function move_targets_uncached(cm, t, loc)
  local out = {}
  if t == "A" then
    for p in pairs(cm.army_adj[cm.loc_prov[loc]] or {}) do
      if cm.prov[p] and cm.prov[p].type ~= "sea" and cm.prov[p].type ~= "impassable" then
        out[#out + 1] = p
      end
    end
  else
    for l in pairs(cm.fleet_adj[loc] or {}) do out[#out + 1] = l end
  end
  table.sort(out)
  return out
end

function M.move_targets(cm, t, loc)
  local memo = cm.targets_memo
  if not memo then memo = { A = {}, F = {} }; cm.targets_memo = memo end
  local byt = memo[t]
  if not byt then byt = {}; memo[t] = byt end
  local l = byt[loc]
  if not l then
    l = move_targets_uncached(cm, t, loc)
    byt[loc] = l
  end
  return l
end

-- Phase strings: "S1901M" -> "S", 1901, "M". Memoised by string (a pure function of it; the memo
-- is emptied when it grows past PHASE_MEMO_MAX strings, so any input keeps it small).
local PHASE_MEMO_MAX = 512
local phase_memo, phase_memo_n = {}, 0

-- the memo record of a phase string: {s, y, k} (y a number; all nil when it does not parse);
-- next-phase strings are added to it by diplomacy.adjudicate
local function phase_rec(ph)
  local r = phase_memo[ph]
  if r then return r end
  local s, y, k = ph:match("^([SFW])(%d+)([MRA])$")
  r = { s, tonumber(y), k }
  if phase_memo_n >= PHASE_MEMO_MAX then phase_memo, phase_memo_n = {}, 0 end
  phase_memo[ph] = r
  phase_memo_n = phase_memo_n + 1
  return r
end
M.phase_rec = phase_rec

function M.split_phase(ph)
  local r = phase_memo[ph] or phase_rec(ph)
  return r[1], r[2], r[3]
end

return M
