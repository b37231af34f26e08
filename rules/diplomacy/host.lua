-- diplomacy.host -- the glue between the pure Diplomacy library (diplomacy.game) and the hexwar
-- engine. Loaded only inside the host (rules/diplomacy/init.lua calls install when the `hex` API
-- exists); the plain-Lua test runner never sees it.
--
-- State: the Diplomacy position lives in the rule variable `position` (the library's
-- serialisable position table); the orders a power gave in the current phase in `orders.POWER`
-- ({"A PAR - BUR", ...}; one variable per power, so an order list costs only its own strings);
-- `next_unit` numbers units. Every change is a VarSet event.
-- GameState.units mirrors the position (ids "FRANCE-3", type "army"/"fleet", at = location,
-- status "dislodged" while waiting to retreat) through UnitMoved / UnitEliminated / UnitPlaced /
-- UnitStatusChanged events, so the generic CLI, saves and logs see the board.
--
-- Sequence: one turn = one game year, five simultaneous steps S..M, S..R, F..M, F..R, W..A. The
-- library's position knows the real next phase (it skips retreat/adjustment phases with nothing
-- to do); every step whose label is not the position's phase is passed over (both the labels
-- and that rule are declared as data, answered by the host without a Lua call: install).
--
-- Commands (all powers order in the same step; `power` defaults to the commanding side):
--   {command = "orders", power = "FRANCE", orders = {"A PAR - BUR", ...}}  replaces the power's orders
--   {command = "order", power = "FRANCE", order = "A PAR - BUR"}           adds one order (bots)
--   {command = "end_phase"}                                                  adjudicates the phase
-- Illegal order text is never refused: the adjudicator makes it a `void` result (DATC).
-- end_phase emits Custom event PhaseAdjudicated whose data is the library's result table
-- (docs/diplomacy.md), which `hexwar play --json` prints.

local M = {}

local prov_of = require("diplomacy.map").prov_of
local current -- the game API (standard or a variant); configuration chosen at load time
local installed = false

local STEPS = {
  { season = "S", kind = "M", phase = "spring movement" },
  { season = "S", kind = "R", phase = "spring retreats" },
  { season = "F", kind = "M", phase = "fall movement" },
  { season = "F", kind = "R", phase = "fall retreats" },
  { season = "W", kind = "A", phase = "winter adjustments" },
}
local TYPE_OF = { A = "army", F = "fleet" }
local LETTER_OF = { army = "A", fleet = "F" }

-- (built once per VM by the host, so kept here once asked for)
local the_board
local function board()
  local b = the_board
  if not b then
    b = hex.map.board_table()
    the_board = b
  end
  return b
end

local function start_year()
  local sp = board().start_phase or "S1901M"
  return tonumber(sp:sub(2, 5)) or 1901
end

-- "S1901M" for (turn 1, step 0); turn 1 is the map's start year. Memoised by board (the
-- engine asks for labels and skips at every step).
local label_board, labels
local function label(turn, step)
  local s = STEPS[step + 1]
  if not s then return nil end
  local b = board()
  if b ~= label_board then label_board, labels = b, {} end
  local key = turn * 8 + step
  local l = labels[key]
  if not l then
    l = s.season .. tostring(start_year() + turn - 1) .. s.kind
    labels[key] = l
  end
  return l
end
M.label = label

-- The tables this VM last wrote to and last read from the variables `position` and `orders`. A
-- kept table stands for its variable only while hex.state.matches says the state holds exactly
-- it (an exact comparison: an undo, another game or a loaded save in the same VM, a mutated
-- table all read afresh), which spares rebuilding the whole position in Lua at every phase: a
-- game reads what it wrote the phase before, a replayed or re-tried phase what it read.
local written, read = {}, {}

-- the kept table that is the variable `key` now, or nil
local function kept_var(key)
  local t = written[key]
  if t ~= nil and hex.state.matches(key, t) then return t end
  t = read[key]
  if t ~= nil and hex.state.matches(key, t) then return t end
  return nil
end

-- Why a position read from the state is not one, or nil (defined below, with the setup's
-- checks it shares).
local malformed_position

local function read_var(key)
  local t = kept_var(key)
  if t ~= nil then return t end
  t = hex.state.get(key)
  -- (a position this VM did not write, a resumed save's, which anyone can edit and seal
  -- again: a malformed one failed later as `attempt to index a number value` in some listing)
  if key == "position" and t ~= nil then
    local why = malformed_position(t)
    if why then
      error("the game's position (the state's variable `position`) is not one: " .. why
        .. " (a save edited by hand?)", 0)
    end
  end
  read[key] = type(t) == "table" and t or nil
  return t
end

-- the VarSet event of `key` = `t` (a table), keeping `t` to stand for the variable
local function set_var(key, t)
  written[key] = t
  return { event = "VarSet", key = key, value = hex.state.json(t) }
end

local function position()
  return read_var("position")
end

local function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- Memos of pure functions of the map (hex.map.board_table() is built once per VM, so its identity
-- names the map): the power list, the power set, neighbour lists by unit class.
local memo_board, memo_powers, memo_is_power, memo_neighbors

local function map_memo()
  local b = board()
  if b ~= memo_board then
    memo_board = b
    memo_powers, memo_is_power = {}, {}
    for i, p in ipairs(b.powers or {}) do
      memo_powers[i] = p.name
      memo_is_power[p.name] = true
    end
    memo_neighbors = { army = {}, fleet = {} }
  end
end

local function powers()
  map_memo()
  local out = {}
  for i, p in ipairs(memo_powers) do out[i] = p end
  return out
end

local function is_power(name)
  map_memo()
  return memo_is_power[name] == true
end

-- the variable holding `power`'s orders of the phase ("orders.FRANCE")
local ORDERS_KEY = setmetatable({}, { __index = function(t, p)
  local k = "orders." .. p
  t[p] = k
  return k
end })

-- the value of a VarSet that deletes its variable (JSON null; made once, at install)
local NULL

-- the VarSets that clear every power's orders (appended to `events`), and the orders they held
-- ({POWER = {...}}, the powers that gave none left out)
local function take_orders(events)
  map_memo()
  local all = {}
  for _, p in ipairs(memo_powers) do
    local key = ORDERS_KEY[p]
    local list = hex.state.get(key)
    if list ~= nil then
      all[p] = list
      events[#events + 1] = { event = "VarSet", key = key, value = NULL }
    end
  end
  return all
end

-- hex.map.neighbors(loc, class), memoised (read-only: shared between calls)
local function neighbors(loc, class)
  map_memo()
  local by = memo_neighbors[class]
  local l = by[loc]
  if not l then
    l = hex.map.neighbors(loc, class)
    by[loc] = l
  end
  return l
end

-- `f(text)` for order texts, memoised (`f` is a pure function of the text; the memo is emptied
-- once it holds 8192 answers, since order text is free text)
local function text_memo(f)
  local kept, n = {}, 0
  return function(text)
    local v = kept[text]
    if v == nil then
      v = f(text)
      if n >= 8192 then kept, n = {}, 0 end
      kept[text] = v
      n = n + 1
    end
    return v
  end
end

-- the unit an order text names ("A PAR - BUR" -> "A PAR"), or false
local order_unit = text_memo(function(order)
  return order:match("^(%u %S+)") or false
end)

-- destination province of a move or retreat order text ("A PAR - BUR" -> "BUR"), or false
local order_dest = text_memo(function(order)
  local d = order:match("^%u %S+ [%-R] (%S+)")
  if not d then return false end
  -- (an alias or a coast read through the map, "LIV" -> "LVN", "STP/NC" -> "STP": a unit moved
  -- by an order naming an alias kept no id, the mirror took it for a unit gone and a new one)
  return require("diplomacy.map").get(board()).loc_prov[d] or prov_of(d)
end)

local function status_change(events, id, was, now)
  events[#events + 1] = { event = "UnitStatusChanged", unit = id,
    add = now and { "dislodged" } or nil, remove = (not now) and { "dislodged" } or nil }
end

-- the unit string of a GameState unit ("A PAR"), memoised by type and location (pure; emptied
-- when it grows large: a loaded save may place units anywhere)
local USTR, nustr = { army = {}, fleet = {} }, 0
local function unit_string(kind, at)
  local by = USTR[kind]
  local s = by and by[at or false]
  if not s then
    s = (LETTER_OF[kind] or "?") .. (at and (" " .. at) or " nil")
    if by then
      if nustr >= 8192 then USTR, nustr = { army = {}, fleet = {} }, 0; by = USTR[kind] end
      by[at or false] = s
      nustr = nustr + 1
    end
  end
  return s
end

-- the place key of a unit string: its type and province ("F STP/SC" -> "F STP"), memoised
-- like unit_string
local PLACE, nplace = {}, 0
local function place_key(u)
  local key = u:sub(1, 5)
  if nplace >= 8192 then PLACE, nplace = {}, 0 end
  PLACE[u] = key
  nplace = nplace + 1
  return key
end

-- (the chain of entries with the same key: `first[key]` the first index, `nxt[i]` the next one
-- after i; entries come in order, so a key met again walks to the end of its chain, which only
-- stacks of the variant do)
local function chain(first, nxt, key, i)
  local j = first[key]
  if j == nil then first[key] = i; return end
  while nxt[j] do j = nxt[j] end
  nxt[j] = i
end

-- Events that make GameState.units mirror `pos` (units + units waiting to retreat). `result` (the
-- phase's result, or nil) tells which units moved where; `reason` is the UnitEliminated reason
-- for units that left the board (nil: removed by a setup, UnitRemoved).
-- Matching, in id order of the units in play: first the units that did not move, each to the
-- first unmatched entry of the same power and unit string; then the units that moved, to the first
-- unmatched entry of the same power and type in the destination province. Units left over are
-- eliminated (or removed), entries left over are placed as new units. The entries are indexed
-- by those two keys (first entry of a key, then a chain of the next entries with the same key),
-- so each match is a lookup, not a scan; they live in parallel arrays (no table per entry).
local function mirror(pos, result, reason, events)
  local npower, nunit, ndisl, taken = {}, {}, {}, {}
  local n = 0
  local first_by_unit, next_by_unit = {}, {} -- power -> unit string -> first index; index -> next
  -- (power -> place key -> true for the entries whose unit string is longer than its place key,
  -- "F STP/SC": only at those places do the place and the unit string tell entries apart)
  local coasted -- power -> set of place keys of its entries standing on a coast ("F STP/SC")
  local function mark_coasted(power, u)
    coasted = coasted or {}
    local c = coasted[power]
    if not c then c = {}; coasted[power] = c end
    c[PLACE[u] or place_key(u)] = true
  end
  -- (the entries of pos.units, power by power in name order, then pos.dislodged: this runs for
  -- every unit at every phase, so the common case is written out)
  local units = pos.units or {}
  local names = sorted_keys(units)
  for pi = 1, #names do
    local p = names[pi]
    local f = {}
    first_by_unit[p] = f
    local list = units[p]
    for j = 1, #list do
      local u = list[j]
      n = n + 1
      npower[n], nunit[n] = p, u
      if f[u] == nil then f[u] = n else chain(f, next_by_unit, u, n) end
      if #u > 5 then mark_coasted(p, u) end
    end
  end
  local dislodged = pos.dislodged or {}
  for j = 1, #dislodged do
    local d = dislodged[j]
    local power, u = d.power, d.unit
    n = n + 1
    npower[n], nunit[n], ndisl[n] = power, u, true
    local f = first_by_unit[power]
    if not f then f = {}; first_by_unit[power] = f end
    chain(f, next_by_unit, u, n)
    if #u > 5 then mark_coasted(power, u) end
  end
  local movers
  local entries = result and result.results or {}
  for j = 1, #entries do
    local e = entries[j]
    if #e.flags == 0 then
      local dest = order_dest(e.order)
      if dest then
        movers = movers or {}
        local t = movers[e.power]
        if not t then t = {}; movers[e.power] = t end
        t[e.unit] = dest
      end
    end
  end
  local ids, sides, types, ats = hex.units.list("id"), hex.units.list("side"), hex.units.list("type"), hex.units.list("at")
  local was_dislodged = hex.units.with_status("dislodged")
  local nold = #ids
  local dest_of, done = {}, {}
  -- units that stayed (same place), then units that moved (to their destination)
  for k = 1, nold do
    local by, at = USTR[types[k]], ats[k]
    local s = by and by[at or false]
    if not s then s = unit_string(types[k], at) end
    local dest = false
    if movers then
      local m = movers[sides[k]]
      dest = m and m[s] or false
      dest_of[k] = dest
    end
    if not dest then
      local f = first_by_unit[sides[k]]
      local i = f and f[s]
      while i and taken[i] do i = next_by_unit[i] end
      if i then
        taken[i] = true
        done[k] = true
        local id = ids[k]
        local now = ndisl[i] == true
        if (was_dislodged[id] == true) ~= now then status_change(events, id, was_dislodged[id] == true, now) end
      end
    end
  end
  if movers then
    -- (the entries by power and place key, made only when a move ends at a place with coasts)
    local first_by_place, next_by_place
    for k = 1, nold do
      local dest = dest_of[k]
      if dest then
        local side = sides[k]
        -- (the unit string of its type at the destination: unit_string, memoised)
        local by = USTR[types[k]]
        local key = by and by[dest] or unit_string(types[k], dest)
        local c = coasted and coasted[side]
        local f, nxt
        if c and c[key] then
          if not first_by_place then
            first_by_place, next_by_place = {}, {}
            for i = 1, n do
              local power, u = npower[i], nunit[i]
              local fp = first_by_place[power]
              if not fp then fp = {}; first_by_place[power] = fp end
              local pk = PLACE[u] or place_key(u)
              if fp[pk] == nil then fp[pk] = i else chain(fp, next_by_place, pk, i) end
            end
          end
          f, nxt = first_by_place[side], next_by_place
        else
          -- (no entry of the power at this place has a coast: its place key is its unit string)
          f, nxt = first_by_unit[side], next_by_unit
        end
        local i = f and f[key]
        while i and taken[i] do i = nxt[i] end
        if i then
          taken[i] = true
          done[k] = true
          local id = ids[k]
          local to = nunit[i]:sub(3)
          events[#events + 1] = { event = "UnitMoved", unit = id, from = ats[k] or nil, to = to, path = { to }, cost = 0 }
          local now = ndisl[i] == true
          if (was_dislodged[id] == true) ~= now then status_change(events, id, was_dislodged[id] == true, now) end
        end
      end
    end
  end
  for k = 1, nold do
    if not done[k] then
      if reason then
        events[#events + 1] = { event = "UnitEliminated", unit = ids[k], reason = reason }
      else
        events[#events + 1] = { event = "UnitRemoved", unit = ids[k], reason = "setup" }
      end
    end
  end
  local counter
  for i = 1, n do
    if not taken[i] then
      counter = counter or hex.state.get("next_unit") or 1
      local power, unit = npower[i], nunit[i]
      events[#events + 1] = { event = "UnitPlaced", unit = {
        id = power .. "-" .. counter, side = power, nation = power,
        type = TYPE_OF[unit:sub(1, 1)] or "army", at = unit:sub(3),
        status = ndisl[i] and { "dislodged" } or nil,
      } }
      counter = counter + 1
    end
  end
  if counter then events[#events + 1] = { event = "VarSet", key = "next_unit", value = counter } end
  return events
end

-- Checks a setup unit string against the map: "A PAR" (land or coast), "F STP/NC" (sea or
-- coast; split-coast provinces need the coast). Returns an error message or nil.
local function bad_unit(u)
  local t, loc = tostring(u):match("^([AF]) (%S+)$")
  if not t then return "unit '" .. tostring(u) .. "' must be written \"A PAR\" or \"F STP/NC\"" end
  local region = hex.map.region(loc)
  if not region then return "unit '" .. u .. "': '" .. loc .. "' is not a location of the map" end
  if region.type == "impassable" then
    return "unit '" .. u .. "': " .. region.id .. " is impassable: no unit stands there"
  end
  if t == "A" then
    if loc:find("/") then return "unit '" .. u .. "': armies never carry a coast" end
    if region.type ~= "land" and region.type ~= "coast" then return "unit '" .. u .. "': an army cannot stand at sea" end
  else
    if region.type ~= "sea" and region.type ~= "coast" then return "unit '" .. u .. "': a fleet cannot stand inland" end
    if #region.coasts > 0 and not loc:find("/") then
      return "unit '" .. u .. "': name the coast (" .. region.id .. "/" .. table.concat(region.coasts, ", " .. region.id .. "/") .. ")"
    end
  end
  return nil
end

-- Why a setup's board is impossible, or nil: two units in one province (one a province; the
-- Francqueville variant's stacks, R-g2, are units of one power), a centre owned twice.
-- Adds to `problems` every unit in a province another holds and every centre owned twice (a
-- unit already named as bad is left out: it has no province to crowd).
local function crowded(s, problems)
  local held = {}
  for _, p in ipairs(sorted_keys(s.units or {})) do
    for _, u in ipairs(s.units[p]) do
      local region = type(u) == "string" and hex.map.region(u:sub(3))
      local there = region and held[region.id]
      if there and not (current.rules.stacks and there.power == p) then
        problems[#problems + 1] = "[units]." .. p .. ": '" .. u .. "': " .. region.id .. " already holds "
          .. there.power .. "'s " .. there.unit .. " (one unit a province" ..
          (current.rules.stacks and ", or units of one power" or "") .. ")"
      elseif region then
        held[region.id] = there or { power = p, unit = u }
      end
    end
  end
  local owner = {}
  for _, p in ipairs(sorted_keys(s.centers or {})) do
    for _, c in ipairs(s.centers[p]) do
      if owner[c] then
        problems[#problems + 1] = "[centers]." .. p .. ": '" .. c .. "' is " .. owner[c]
          .. "'s already (a centre has one owner)"
      else
        owner[c] = p
      end
    end
  end
end

-- Adds to `problems` what is impossible among a position's units waiting to retreat: any
-- outside a retreat phase, a unit where its kind may not stand or dislodged twice, a retreat
-- its kind cannot make from there (an army "retreating" from MUN to NAP was played).
local function dislodged_problems(pos, problems)
  local dislodged = pos.dislodged or {}
  if #dislodged > 0 and not tostring(pos.phase):match("R$") then
    problems[#problems + 1] = "dislodged: units wait to retreat in " .. tostring(pos.phase)
      .. ", which is no retreat phase"
  end
  local seen = {}
  for k, d in ipairs(dislodged) do
    local u = type(d) == "table" and d.unit
    local msg
    if type(u) ~= "string" then
      msg = "not a unit written \"A PAR\""
    elseif seen[u] then
      msg = "'" .. u .. "' is dislodged twice"
    else
      msg = bad_unit(u)
    end
    if msg then
      problems[#problems + 1] = "dislodged #" .. k .. ": " .. msg
    else
      seen[u] = true
      local class = TYPE_OF[u:sub(1, 1)]
      for _, r in ipairs(type(d.retreats) == "table" and d.retreats or {}) do
        if type(r) ~= "string" or not hex.map.region(r) or not hex.map.adjacent(u:sub(3), r, class) then
          problems[#problems + 1] = "dislodged #" .. k .. ": '" .. u .. "' cannot retreat to "
            .. tostring(r) .. " (no " .. class .. " move from " .. u:sub(3) .. ")"
        end
      end
    end
  end
end

-- A TOML array as the rules read it: a table with the keys 1..n only (an inline table, or a
-- date, which reaches Lua as a table, is not one).
local function is_list(v)
  if type(v) ~= "table" then return false end
  local n = 0
  for _ in pairs(v) do n = n + 1 end
  return n == #v
end

function malformed_position(pos)
  if type(pos) ~= "table" then return "it is a " .. type(pos) .. ", not a table" end
  if type(pos.phase) ~= "string" or not pos.phase:match("^[SFW]%d%d%d%d[MRA]$") then
    return "phase '" .. tostring(pos.phase) .. "' must look like S1901M, F1901R, W1901A"
  end
  for _, key in ipairs({ "units", "centers" }) do
    local t = pos[key]
    if t ~= nil then
      if type(t) ~= "table" then return key .. " must be a table POWER = {...}" end
      for _, p in ipairs(sorted_keys(t)) do
        if not is_power(p) then return key .. ": '" .. tostring(p) .. "' is not a power of the map" end
        if not is_list(t[p]) then return key .. "." .. p .. " must be a list" end
        for _, x in ipairs(t[p]) do
          if type(x) ~= "string" then return key .. "." .. p .. ": " .. tostring(x) .. " is not a name" end
        end
      end
    end
  end
  if pos.dislodged ~= nil and not is_list(pos.dislodged) then return "dislodged must be a list" end
  -- (its shape only: the units' places and the centres' owners are the adjudicator's to meet,
  -- and checking them cost every phase read from a state it did not write 1-2%)
  return nil
end

-- What a Diplomacy setup holds (`dislodged`: the test extension); another key, a misspelt
-- `[centres]`, would be set aside and the board's own centres played.
local SETUP_KEYS = { "centers", "dislodged", "phase", "units" }

local function setup(t)
  -- (the engine's [[unit]] tables would replace its units and leave the rules' board as it was)
  if t.unit ~= nil then
    return hex.refuse("DIP-setup", "a Diplomacy position gives its units as [units], POWER = "
      .. "[\"A PAR\", \"F STP/NC\", ...], not as [[unit]] tables")
  end
  local unknown = require("lib.spelling").unknown_key(t, SETUP_KEYS)
  if unknown then
    return hex.refuse("DIP-setup", unknown .. " (a setup holds " .. table.concat(SETUP_KEYS, ", ") .. ")")
  end
  -- (phase, units and centres in any case, as orders are read: "s1901m", "a par")
  local phase = t.phase or board().start_phase or "S1901M"
  if type(phase) == "string" then phase = phase:upper() end
  if type(phase) ~= "string" or not phase:match("^[SFW]%d%d%d%d[MRA]$") then
    return hex.refuse("DIP-setup", "phase '" .. tostring(phase) .. "' must look like S1901M, F1901R, W1901A")
  end
  local s = { phase = phase, dislodged = t.dislodged }
  -- (every bad unit and centre is named at once: a setup written by hand has several)
  local problems = {}
  for _, key in ipairs({ "units", "centers" }) do
    if t[key] ~= nil then
      if type(t[key]) ~= "table" then return hex.refuse("DIP-setup", "[" .. key .. "] must be a table POWER = [...]") end
      s[key] = {}
      for _, p in ipairs(sorted_keys(t[key])) do
        if not is_power(p) then
          return hex.refuse("DIP-setup", "[" .. key .. "]: '" .. tostring(p) .. "' is not a power of the map (" .. table.concat(powers(), ", ") .. ")")
        end
        local list = t[key][p]
        if not is_list(list) then
          return hex.refuse("DIP-setup", "[" .. key .. "]." .. p .. " must be a list (" .. p .. ' = ["'
            .. (key == "units" and "A PAR" or "PAR") .. '", ...])')
        end
        s[key][p] = {}
        for i, x in ipairs(list) do
          if type(x) == "string" then x = x:upper() end
          if key == "units" then
            local msg = bad_unit(x)
            if msg then problems[#problems + 1] = "[units]." .. p .. ": " .. msg end
            -- (a unit written with an alias is kept as the game writes it by new_position)
          else
            local r = hex.map.region(tostring(x))
            if not r or not r.supply_center then
              problems[#problems + 1] = "[centers]." .. p .. ": '" .. tostring(x) .. "' is not a supply centre"
            else
              x = r.id -- (an alias read as the id, so that crowded sees a centre owned twice)
            end
          end
          s[key][p][i] = x
        end
      end
    end
  end
  crowded(s, problems)
  if #problems > 0 then return hex.refuse("DIP-setup", table.concat(problems, "; ")) end
  local pos = current.new_position(board(), s)
  dislodged_problems(pos, problems)
  if #problems > 0 then return hex.refuse("DIP-setup", table.concat(problems, "; ")) end
  local events = { set_var("position", pos) }
  take_orders(events)
  return mirror(pos, nil, nil, events)
end

-- The home centres `power` may build in now: its build sites (the game's or a variant's) that
-- it holds, with no unit on them nor one named in `ordered` (a set of unit strings), in order.
local function open_build_sites(pos, power, ordered)
  local busy, owned = {}, {}
  for _, list in pairs(pos.units or {}) do
    for _, u in ipairs(list) do busy[u:sub(3, 5)] = true end
  end
  for u in pairs(ordered or {}) do busy[u:sub(3, 5)] = true end
  for _, c in ipairs((pos.centers or {})[power] or {}) do owned[c] = true end
  local out = {}
  for _, h in ipairs(current.build_sites(board(), pos, power)) do
    if owned[h] and not busy[h] then out[#out + 1] = h end
  end
  return out
end

-- A power's centres, units and the home centres it may build in now, as the next adjustments
-- count them: a unit waiting to retreat is still the power's (a retreat phase).
local function adjustment(pos, power)
  local nu = #((pos.units or {})[power] or {})
  for _, d in ipairs(pos.dislodged or {}) do
    if d.power == power then nu = nu + 1 end
  end
  local nc = #((pos.centers or {})[power] or {})
  return nc, nu, nc > nu and open_build_sites(pos, power) or {}
end

-- Random legal orders for a power's unordered units (the bots' menu): hold, moves to adjacent
-- locations, supports to hold of adjacent units; retreats and disbands; builds and disbands.
-- (the position this VM keeps if the state still holds it, else only the parts the phase needs:
-- the whole of it costs more to convert, and more to check; parts that are not what a position
-- holds have the whole read, which names what is wrong with it)
local function legal_orders(side)
  local pos = kept_var("position")
  if not pos then
    local phase = hex.state.get("position", "phase")
    if (phase == nil and hex.state.get("position") ~= nil) or (phase ~= nil and type(phase) ~= "string") then
      position()
    end
    if phase == nil or hex.state.get("position", "winner") ~= nil then return {} end
    pos = { phase = phase }
    local kind = phase:sub(-1)
    if kind == "R" then
      pos.dislodged = hex.state.get("position", "dislodged")
    else
      pos.units = hex.state.get("position", "units")
      if kind == "A" then pos.centers = hex.state.get("position", "centers") end
    end
    for _, key in ipairs({ "dislodged", "units", "centers" }) do
      if pos[key] ~= nil and type(pos[key]) ~= "table" then position() end
    end
  end
  local phase = pos.phase
  if phase == nil or pos.winner ~= nil then return {} end
  local kind = phase:sub(-1)
  if kind ~= "R" and not pos.units then pos = { phase = phase, units = {}, centers = pos.centers } end
  local given = hex.state.get(ORDERS_KEY[side]) or {}
  local ordered = {}
  for _, o in ipairs(given) do
    local u = order_unit(o)
    if u then ordered[u] = true end
  end
  local out, listed = {}, {}
  -- (a variant's order_allowed leaves out what it forbids: the bots do not order it)
  local allowed = current.rules.order_allowed
  local cm = allowed and require("diplomacy.map").get(board())
  local orders_mod = allowed and require("diplomacy.orders")
  -- (each order text once: the units of a stack (Francqueville, R-g2) have the same orders)
  local function add(text)
    if listed[text] then return end
    listed[text] = true
    if allowed and allowed(current.rules, cm, pos, side, orders_mod.in_phase(orders_mod.parse(cm, text), kind)) == false then
      return
    end
    out[#out + 1] = { command = "order", power = side, order = text }
  end
  if kind == "M" then
    local occupant = {}
    for _, p in ipairs(sorted_keys(pos.units)) do
      for _, u in ipairs(pos.units[p]) do occupant[u:sub(3, 5)] = u end
    end
    -- each unit's moves, and the provinces they reach (for the supports to move below)
    local mine = pos.units[side] or {}
    local moves_of, reach = {}, {}
    for _, u in ipairs(mine) do
      local moves = neighbors(u:sub(3), u:sub(1, 1) == "A" and "army" or "fleet")
      local set = {}
      for _, dest in ipairs(moves) do set[prov_of(dest)] = true end
      moves_of[u], reach[u] = moves, set
    end
    for _, u in ipairs(mine) do
      if not ordered[u] then
        add(u .. " H")
        for _, dest in ipairs(moves_of[u]) do
          add(u .. " - " .. dest)
          local other = occupant[prov_of(dest)]
          if other and other ~= u then add(u .. " S " .. other) end
        end
        -- supports to move for the side's own units, into a province both reach (so that bot
        -- games see dislodgements and retreats: a variant of the retreat rule is tried there)
        local offered = {}
        for _, dest in ipairs(moves_of[u]) do
          local prov = prov_of(dest)
          if not offered[prov] then
            offered[prov] = true
            for _, other in ipairs(mine) do
              if other ~= u and reach[other][prov] and prov ~= other:sub(3, 5) then
                add(u .. " S " .. other .. " - " .. prov)
              end
            end
          end
        end
      end
    end
  elseif kind == "R" then
    for _, d in ipairs(pos.dislodged or {}) do
      if d.power == side and not ordered[d.unit] then
        for _, r in ipairs(d.retreats or {}) do add(d.unit .. " R " .. r) end
        add(d.unit .. " D")
      end
    end
  elseif kind == "A" then
    local units = pos.units[side] or {}
    local n_centers = #((pos.centers or {})[side] or {})
    if #units > n_centers then
      if #units - n_centers - #given > 0 then
        for _, u in ipairs(units) do
          if not ordered[u] then add(u .. " D") end
        end
      end
    elseif n_centers - #units - #given > 0 then
      for _, h in ipairs(open_build_sites(pos, side, ordered)) do
        local r = hex.map.region(h)
        add("A " .. h .. " B")
        if r.type == "coast" then
          if #r.coasts > 0 then
            for _, c in ipairs(r.coasts) do add("F " .. h .. "/" .. c .. " B") end
          else
            add("F " .. h .. " B")
          end
        end
      end
    end
  end
  return out
end

-- the VarSet of `power`'s orders (a list of strings is read in the one walk over the returned
-- events as it is; an empty list is marked as one, so that the state and the log hold `[]`, not
-- `{}`, which a host reading the pending orders took for an object)
local function set_orders(power, list)
  return { event = "VarSet", key = ORDERS_KEY[power], value = #list > 0 and list or hex.state.list() }
end

-- The most orders a power may give in one phase, and the longest order text (DIP-orders): a
-- power has at most 34 units and the longest order in the notation is under 30 characters. Far
-- beyond either, a list only stops the phase for everyone (a 20 KB order or 60 000 orders ran
-- the adjudication out of its budget, and every power waited until that power's orders changed).
local MAX_ORDERS, MAX_ORDER_LEN = 256, 100
M.MAX_ORDERS, M.MAX_ORDER_LEN = MAX_ORDERS, MAX_ORDER_LEN

-- Refuses orders written for another phase than the game's (`phase = "F1901M"`, optional: a late
-- order is refused instead of being kept for the next phase). An unknown argument (a misspelt
-- `phase` would be dropped) is refused by the host, from each command's `args`.
local function check_args(cmd)
  local phase = cmd.phase
  if phase ~= nil then
    local now = hex.state.get("position", "phase")
    if phase ~= now then
      return hex.refuse("DIP-orders", "these orders are for " .. tostring(phase) .. ", and the game is at " .. tostring(now))
    end
  end
  return nil
end

-- The refusal of order text longer than MAX_ORDER_LEN (`i`: its place in the list, nil for the
-- `order` command's one order); called only for such text.
-- An order over MAX_ORDER_LEN only by the spaces around it (a mail's padding) is given trimmed.
local function within_length(text)
  if #text <= MAX_ORDER_LEN then return text end
  local first, last = text:find("%S") or 1, #text
  while last >= first and text:sub(last, last):find("^%s") do last = last - 1 end
  return last - first < MAX_ORDER_LEN and text:sub(first, last) or nil
end

local function too_long(text, i)
  local what = i and ("order #" .. i) or "the order"
  return hex.refuse("DIP-orders", what .. " is " .. #text .. " characters long (an order is at most " .. MAX_ORDER_LEN .. ")")
end

local function check_power(cmd, side)
  local power = cmd.power or side
  if type(power) ~= "string" or not is_power(power) then
    return nil, hex.refuse("DIP-orders", "orders need a power of the map (" .. table.concat(powers(), ", ") .. "), got '" .. tostring(power) .. "'")
  end
  if side and side ~= power then
    return nil, hex.refuse("DIP-orders", side .. " cannot give orders for " .. power)
  end
  if hex.state.get("position", "phase") == nil then return nil, hex.refuse("DIP-orders", "the game has no position yet") end
  return power
end

-- Whether the phase from `a` to `b` (its result `result`) left every unit where it was: the
-- same units in the same lists, no unit waiting to retreat in either, and no move that
-- succeeded (units going round a cycle leave the lists alike, but each unit moved). GameState.units
-- mirrors the position of the state (every change of the position comes with its mirror's
-- events), so after such a phase the mirror has nothing to do.
local function same_board(a, b, result)
  if (a.dislodged and #a.dislodged > 0) or (b.dislodged and #b.dislodged > 0) then return false end
  local ua, ub = a.units or {}, b.units or {}
  for p, la in pairs(ua) do
    local lb = ub[p]
    if lb ~= la then
      if lb == nil or #lb ~= #la then return false end
      for i = 1, #la do
        if la[i] ~= lb[i] then return false end
      end
    end
  end
  for p in pairs(ub) do
    if ua[p] == nil then return false end
  end
  local entries = result and result.results or {}
  for j = 1, #entries do
    local e = entries[j]
    if #e.flags == 0 and order_dest(e.order) then return false end
  end
  return true
end

-- An empty list, marked as one (made once, at install)
local EMPTY_LIST

-- The report's empty lists marked as lists (hex.state.list), so that the log and every reader of
-- PhaseAdjudicated see `"flags": []`, not `{}` (an empty table reads as an object otherwise). The
-- adjudicator shares its flag lists between calls (docs/diplomacy.md): `marked` remembers the
-- lists marked already, so a shared list costs one call ever and the common case no call at all
-- (this runs at every phase: plain loops, no closure, no pairs).
local marked = setmetatable({}, { __mode = "k" })
local function mark_lists(result)
  local list = hex.state.list
  if #result.disbanded == 0 then result.disbanded = EMPTY_LIST end
  local dislodged = result.dislodged
  if #dislodged == 0 then result.dislodged = EMPTY_LIST end
  local entries = result.results
  for i = 1, #entries do
    local f = entries[i].flags
    if #f == 0 and not marked[f] then list(f); marked[f] = true end
  end
  for i = 1, #dislodged do
    local r = dislodged[i].retreats
    if #r == 0 and not marked[r] then list(r); marked[r] = true end
  end
  local units, centers = result.units, result.centers
  for i = 1, #memo_powers do
    local p = memo_powers[i]
    local l = units[p]
    if l and #l == 0 and not marked[l] then list(l); marked[l] = true end
    l = centers[p]
    if l and #l == 0 and not marked[l] then list(l); marked[l] = true end
  end
end

-- The power that has won `pos` and, if the rules gave one (a variant's `winner`), why.
local function win_of(pos)
  if not pos.units and not pos.winner then return nil end
  local w, reason = current.winner(board(), pos)
  if pos.winner and w ~= pos.winner then return pos.winner, nil end
  return w, reason
end

local function scores_of(pos)
  local scores = {}
  for _, p in ipairs(powers()) do scores[p] = #((pos.centers or {})[p] or {}) end
  return scores
end

local function adjudicate()
  local pos = position()
  local events = { false }
  local orders = take_orders(events)
  local result, next_pos = current.adjudicate(board(), pos, orders)
  events[1] = set_var("position", next_pos)
  if not same_board(pos, next_pos, result) then mirror(next_pos, result, "disbanded", events) end
  mark_lists(result)
  events[#events + 1] = { event = "Custom", name = "PhaseAdjudicated", data = hex.state.json(result) }
  local winner, reason = win_of(next_pos)
  if winner then
    local scores = scores_of(next_pos)
    events[#events + 1] = { event = "GameEnded", winner = winner, scores = scores,
      reason = reason or ("DIP: " .. winner .. " holds " .. scores[winner] .. " supply centres") }
  end
  return events
end
M.adjudicate = adjudicate

-- The game the host drives (the standard one or the last variant loaded): the bots ask its
-- rules what they may order.
function M.game() return current end

-- Variants layer in the order the scenario lists them: each is made over the standard rules
-- (`variant`, `adjudicate.extend`), so what an earlier variant replaced and a later one left
-- standard is carried into the later one's rules table (a second variant used to drop the
-- first without a word). Where both replace one rule, the later wins.
local function layer(game)
  local adj = require("diplomacy.adjudicate")
  local standard = adj.rules
  if not current or current.rules == standard or game.rules == standard then return end
  -- (a rules table not made by `extend` has no record: a rule it left standard is one it kept)
  local named = adj.replaced[game.rules]
  for name, rule in pairs(current.rules) do
    local kept = named and not named[name] or not named and game.rules[name] == standard[name]
    if rule ~= standard[name] and kept then game.rules[name] = rule end
  end
end

-- Installs the glue for `game` (the standard game or a variant). The first call declares the
-- sequence, commands and hooks; a later call (a variant module loaded after the standard one)
-- only swaps the game whose rules adjudicate, with the variants before it layered in.
function M.install(game)
  layer(game)
  current = game
  if installed then return end
  installed = true
  NULL = hex.state.json("null")
  EMPTY_LIST = hex.state.list()
  local steps = {}
  for i, s in ipairs(STEPS) do steps[i] = { phase = s.phase } end
  hex.rules.sequence { steps = steps }
  -- The labels ("S1901M" = season, year, kind) and the skip rule (a step is played only when it
  -- is the position's phase) declared as data: the host answers both without calling Lua.
  local label_steps = {}
  for i, st in ipairs(STEPS) do label_steps[i] = { st.season, st.kind } end
  hex.rules.declare("phase_labels", { first_year = start_year(), steps = label_steps })
  hex.rules.declare("play_only_phase", { var = "position", field = "phase" })
  hex.rules.setup(setup)

  hex.events.on("GameStarted", function()
    if hex.state.get("position", "phase") ~= nil then return nil end
    local pos = current.new_position(board(), nil)
    return mirror(pos, nil, nil, { set_var("position", pos) })
  end)

  hex.commands.define("orders", {
    args = { "power", "orders", "phase" },
    resolve = function(cmd, side)
      local power, refusal = check_power(cmd, side)
      if not power then return refusal end
      refusal = check_args(cmd)
      if refusal then return refusal end
      local orders = cmd.orders
      local n = type(orders) == "table" and #orders
      if not n or (n == 0 and next(orders) ~= nil) then
        return hex.refuse("DIP-orders", "'orders' must be a list of order strings")
      end
      if n > MAX_ORDERS then
        return hex.refuse("DIP-orders", n .. " orders for " .. power .. " (at most " .. MAX_ORDERS .. " a phase)")
      end
      for i = 1, n do
        local o = orders[i]
        if type(o) ~= "string" then return hex.refuse("DIP-orders", "order #" .. i .. " is not a string") end
        if #o > MAX_ORDER_LEN then
          orders[i] = within_length(o)
          if not orders[i] then return too_long(o, i) end
        end
      end
      -- (the command's own list, fresh from its arguments, goes into the event as it is: a copy
      -- cost a table and a write per order; no list, `{}` as before)
      return set_orders(power, n > 0 and orders or {})
    end,
  })
  hex.commands.define("order", {
    args = { "power", "order", "phase" },
    resolve = function(cmd, side)
      local power, refusal = check_power(cmd, side)
      if not power then return refusal end
      refusal = check_args(cmd)
      if refusal then return refusal end
      if type(cmd.order) ~= "string" then return hex.refuse("DIP-orders", "'order' must be an order string") end
      local order = within_length(cmd.order)
      if not order then return too_long(cmd.order) end
      local list = hex.state.get(ORDERS_KEY[power]) or {}
      if #list >= MAX_ORDERS then
        return hex.refuse("DIP-orders", power .. " has given " .. #list .. " orders already (at most " .. MAX_ORDERS .. " a phase)")
      end
      list[#list + 1] = order
      return set_orders(power, list)
    end,
    legal = legal_orders,
  })
  -- Queries for a host (`Game::query`): `orders`, every power's orders given so far in this
  -- phase (`[]` for none); `adjustments`, each power's supply centres and units, the difference
  -- (builds when positive, disbands when negative, at the next adjustment phase) and the home
  -- centres it may build in now (owned and empty).
  hex.rules.query("orders", function()
    local out = {}
    for _, p in ipairs(powers()) do
      local l = hex.state.get(ORDERS_KEY[p])
      out[p] = (type(l) == "table" and #l > 0) and l or hex.state.list()
    end
    return out
  end)
  -- `check_order` ({power = "FRANCE", order = "A PAR - BUR"}): whether the order, given alone,
  -- would be void, and why (diplomacy.order_check): a host's answer to a player at once.
  hex.rules.query("check_order", function(arg)
    -- (a wrong question is the asker's mistake: hex.rules.caller_error, not a rules error)
    if type(arg) ~= "table" or type(arg.power) ~= "string" or type(arg.order) ~= "string" then
      hex.rules.caller_error("give { power = \"FRANCE\", order = \"A PAR - BUR\" }")
    end
    if not is_power(arg.power) then
      hex.rules.caller_error("'" .. arg.power .. "' is not a power of the map (" .. table.concat(powers(), ", ") .. ")")
    end
    local order = within_length(arg.order)
    if not order then
      return { order = arg.order, void = true, reason = "the order is " .. #arg.order
        .. " characters long (an order is at most " .. MAX_ORDER_LEN .. ")" }
    end
    local pos = position()
    if not pos or not pos.phase then hex.rules.caller_error("the game has no position yet") end
    local check = require("diplomacy.order_check")
    local answer = check.check(current, board(), pos, arg.power, order)
    -- (`orders`, the phase's orders by power: why an order valid alone is void beside them)
    if not answer.void and type(arg.orders) == "table" then
      answer.beside = check.beside(current, board(), pos, arg.power, order, arg.orders)
    end
    return answer
  end)
  -- A resumed or checked save's position, judged as a setup's board is (the host asks once):
  -- every unit where its kind may stand, one unit a province (or the variant's stacks), a
  -- centre owned once. A save edited and sealed again was played on from an army at sea.
  hex.rules.query("position_problems", function()
    local pos = position()
    local problems = {}
    if pos == nil then return problems end
    for _, p in ipairs(sorted_keys(pos.units or {})) do
      for _, u in ipairs(pos.units[p]) do
        local msg = bad_unit(u)
        if msg then problems[#problems + 1] = "[units]." .. p .. ": " .. msg end
      end
    end
    crowded(pos, problems)
    dislodged_problems(pos, problems)
    return problems
  end)

  hex.rules.query("adjustments", function()
    local pos = position() or {}
    local out = {}
    for _, p in ipairs(powers()) do
      local nc, nu, sites = adjustment(pos, p)
      out[p] = { centers = nc, units = nu, change = nc - nu,
                 build_sites = #sites > 0 and sites or hex.state.list() }
    end
    return out
  end)

  -- `score`: each power's supply centres now (what the game counts at its end, and what a
  -- player reads first); `status`: what `hexwar status` shows beside the engine's unit list
  -- (the board in the notation, the centres, the builds or disbands due, the orders given).
  hex.rules.query("score", function()
    local pos = position() or {}
    local out = {}
    for _, p in ipairs(powers()) do out[p] = #((pos.centers or {})[p] or {}) end
    return out
  end)
  hex.rules.query("status", function()
    local pos = position() or {}
    local units, centers = pos.units or {}, pos.centers or {}
    local board_units, owned, due, given, waiting = {}, {}, {}, {}, {}
    -- (the units waiting to retreat, with who dislodged them and where they may go)
    for _, d in ipairs(pos.dislodged or {}) do
      local list = waiting[d.power] or {}
      local options = #(d.retreats or {}) > 0 and table.concat(d.retreats, ", ") or "none: disbanded"
      list[#list + 1] = d.unit .. " (by " .. tostring(d.by) .. "; retreats: " .. options .. ")"
      waiting[d.power] = list
    end
    for _, p in ipairs(powers()) do
      board_units[p] = #(units[p] or {}) > 0 and units[p] or hex.state.list()
      owned[p] = #(centers[p] or {}) > 0 and centers[p] or hex.state.list()
      local nc, nu, sites = adjustment(pos, p)
      local change = nc - nu
      if change > 0 then
        due[p] = "builds " .. change .. " (sites: " .. (#sites > 0 and table.concat(sites, ", ") or "none") .. ")"
      elseif change < 0 then
        due[p] = "disbands " .. -change
      end
      local l = hex.state.get(ORDERS_KEY[p])
      given[p] = type(l) == "table" and #l or 0
    end
    local out = { units = board_units, centres = owned, ["orders given this phase"] = given }
    -- (in the adjustment phase itself they are due now, not at the next one)
    local adjusting = type(pos.phase) == "string" and pos.phase:sub(-1) == "A"
    if next(due) then out[adjusting and "due this phase" or "due at the next adjustments"] = due end
    if next(waiting) then out["dislodged, to retreat"] = waiting end
    return out
  end)

  hex.commands.define("end_phase", {
    resolve = function() return adjudicate() end,
  })

  hex.rules.victory(function()
    local pos = position() or {}
    local scores = scores_of(pos)
    local winner, reason = win_of(pos)
    return {
      winner = winner,
      scores = scores,
      reason = winner and (reason or ("DIP: " .. winner .. " holds " .. scores[winner] .. " supply centres"))
        or "DIP: the last year is over and no power holds enough supply centres (scores = centres)",
    }
  end)
end

return M
