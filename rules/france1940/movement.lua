-- france1940/movement: the movement declaration (F40-6.x, 9.x, 10.2, 10.3, 11.3; R1-R8) that the
-- Rust engine compiles and searches (docs/movement.md), the `move` command and the `reach`
-- query. Lua never walks the map step by step here (DESIGN.md principle 1): costs, ZOC and
-- the order check all come from `hex.path`.
--
-- The `move` command: {command = "move", unit = ID, path = {hexes entered...}}.
--   * only in the unit's side's movement phase (F40-9.1 "durant ses phases de mouvement");
--   * one move per unit per phase (reading: a move is one path; the engine judges the whole
--     path against the position at its start, R9), and not after moving by rail (10.1);
--   * budget = common.budget(unit): MA, halved in a second assault (9.1), halved again when
--     isolated (8.3), and on turn 1 for units of countries neutral at the start (18.2), no
--     rounding (R7);
--   * the 22nd Airlanding may not move in the assault of its drop (F40-11.4);
--   * units of a still-neutral country never move (F40-16.1; they have no phase anyway).
-- Events: UnitEnteredHex per hex entered, UnitMoved (with its MP cost), UnitStatusChanged
-- `moved`, and the MP spent recorded in the variable `mp_spent` (evacuation.lua reads it).
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")

local movement = {}

movement.declaration = {
  sides = { "german", "allied", "neutral" },
  classes = { "foot", "mountain", "motorized" },
  -- Names of the full map that small test maps may lack.
  vocabulary = {
    terrain = { "clear", "marsh", "forest", "hills", "wooded_hills", "mountains", "major_city", "sea" },
    hexsides = { "sea", "lake", "major_river", "minor_river", "causeway" },
    zones = { "germany", "france", "netherlands", "belgium", "luxembourg", "switzerland" },
  },
  -- F40-R5: armored and motorized units are motorized; mountain infantry is not.
  unit_class = { attr = "class", by_type = common.CLASS_BY_TYPE, default = "foot" },
  terrain = {                                                                -- F40-9.2
    clear = 1, forest = 2, hills = 1, wooded_hills = 2, major_city = 1,
    marsh = { motorized = "prohibited", default = 2 },
    mountains = { foot = 3, mountain = 2, motorized = 6 },                   -- R5: 6 is a cost
    sea = "prohibited",                                                      -- 10.2
  },
  hexsides = {                                                               -- F40-9.3, 9.4
    sea = {                                                                  -- 9.3, 10.3, R6
      allied = 1,
      german = { unless = { "causeway" }, ["then"] = 0, ["else"] = "prohibited" },
      default = "prohibited",
    },
    lake = "prohibited",
    major_river = 2,
    -- minor_river, causeway: no entry = no cost (9.4)
  },
  friendly_status_cost = { disorganized = 2 },                               -- F40-9.5
  enemy_hexes = { enterable_if_only = { flags = { "para" }, size = { "III" }, match = "all" } }, -- F40-11.3, R8
  no_entry_across = { sea = { "enemy_zoc", "enemy_territory" } },            -- F40-10.2
  zoc = {
    except = { status = { "disorganized", common.NEUTRAL }, size = { "III" } },  -- 6.1, R8
    blocked_by_hexsides = { "sea", "lake" },                                 -- 6.1, R1, R6
    stop_on_entry = true,                                                    -- 6.2, R2
    leave_cost = 1,                                                          -- 6.3, R2
    zoc_to_zoc = { "motorized" },                                            -- 6.4, R3
    friendly_units_negate = false,                                           -- R4
    retreat = { blocked = { "foot", "mountain" }, friendly_unit_negates = true },  -- 6.6
  },
  supply = {
    zoc_blocks = { "foot", "mountain" },                                     -- 6.5, 8.1
    friendly_unit_negates_zoc = true,                                        -- 6.5
    hexsides = {                                                             -- R12
      lake = "prohibited",
      sea = { german = { unless = { "causeway" }, ["then"] = 0, ["else"] = "prohibited" } },
    },
    always_supplied = { status = { common.NEUTRAL } },                       -- R12
  },
  rail = {                                                                   -- F40-10.1
    zones = { german = "germany", allied = "france" },
    blocked_by_hexsides = { "sea" },
    excluded = { status = { "isolated" } },                                  -- 8.3
  },
  territory = { ignore = { status = { common.NEUTRAL } } },                  -- R11
  clauses = {
    start = "F40-9.1",
    adjacent = "F40-9.1",
    terrain = "F40-9.2",
    hexside = "F40-9.3",
    enemy_occupied = { id = "F40-9.5", text = "a unit never enters a hex held by enemy units, or by a neutral country's (R8)" },
    zoc_stop = "F40-6.2",
    zoc_to_zoc = { id = "F40-6.4", text = "non-motorized unit cannot move from enemy ZOC to enemy ZOC" },
    across_into_zoc = "F40-10.2",
    across_into_territory = "F40-10.2",
    budget = "F40-9.1",
  },
}

-- Why `unit` may not move now, as (rule, reason), or nil.
function movement.cannot_move(u, side)
  -- (a neutral country's unit is no side's to move: 16.1 says why, not "not an allied unit")
  if u.status[common.NEUTRAL] then
    return "F40-16.1", u.id .. " belongs to a neutral country: units of a neutral country may not move"
  end
  if u.side ~= side then return "F40-9.1", common.not_of_side(u, side) end
  if not common.is_movement_phase() then return "F40-9.1", "units move only in their movement phase" end
  if not u.at then return "F40-9.1", u.id .. " is not on the map" end
  if u.status.railed then return "F40-10.1", u.id .. " has moved by rail this phase" end
  if u.status.moved then return "F40-9.1", u.id .. " has already moved this phase" end
  if u.status.dropped and u.attrs.airlanding then
    return "F40-11.4", u.id .. " may not move in the assault of its drop"
  end
  if common.para_regiment(u) then return "F40-11.3", "para regiments have no movement factor" end
  return nil
end

-- The `reach` answer: the hexes `u` could reach with the budget of the current assault, or {}
-- when it may not move (already moved, neutral, airlanding just dropped). Whose phase it is
-- does not matter here, so `hexwar reach` can show either side's units.
function movement.reach(u)
  if not u or not u.at then return {} end
  local st = u.status
  if st.moved or st.railed or st[common.NEUTRAL] or (st.dropped and u.attrs.airlanding)
      or common.para_regiment(u) then
    return {}
  end
  -- The political restrictions (16.1, 16.3, 16.4, 16.6, 18.2, R10) are part of where a unit
  -- can go: the search never enters a hex the unit may not enter.
  local restrictions = require("france1940.restrictions")
  return hex.path.reach(u.id, common.budget(u), { blocked = restrictions.blocked(u) })
end

-- Why the unit's budget is below its MA, as "MA 8 halved: second assault, F40-9.1", or nil.
local function halved_ma(u)
  local halved = common.budget_halvings(u)
  if #halved == 0 then return nil end
  return string.format("MA %s halved: %s", common.mp_str(u.ma or 0), table.concat(halved, "; "))
end

local held_by_others

-- The engine's refusal of a move, with the halvings of the unit's MA when it refuses a path
-- that costs more than the budget ("(MA 4 halved: second assault, F40-9.1)"), and the units
-- holding the hex a step enters when 9.5 refuses it ("; 3527 holds nl-bde-a").
function movement.explained(u, refusal)
  local reason = tostring(refusal.reason)
  if refusal.rule == movement.declaration.clauses.enemy_occupied.id then
    local to = reason:match(" to (%w+)%)$")
    local held = to and held_by_others(u, to)
    if not held then return refusal end
    return hex.refuse(refusal.rule, string.format("%s; %s holds %s", reason, to, table.concat(held, ", ")))
  end
  if refusal.rule ~= "F40-9.1" or not reason:find(" MP allowed", 1, true) then
    return refusal
  end
  local halved = halved_ma(u)
  if not halved then return refusal end
  return hex.refuse(refusal.rule, string.format("%s (%s)", reason, halved))
end

-- The refusal of a move named by its destination (`to`) that no path within the budget reaches
-- (refusals only; accepted moves never come here): a hex held by units of another side (not
-- only para regiments) is named with them, F40-9.5; else it is out of reach, and a path given
-- step by step names what stops it (an enemy ZOC, a neutral country), which no search here
-- second-guesses.
function held_by_others(u, to)
  local ids, only_paras = {}, true
  for _, o in ipairs(common.enemies_at(to, u.side)) do
    ids[#ids + 1] = o.id
    if not common.para_regiment(o) then only_paras = false end
  end
  if #ids == 0 or only_paras then return nil end
  table.sort(ids)
  return ids
end

function movement.unreachable(u, to)
  local held = held_by_others(u, to)
  if held then
    local clause = movement.declaration.clauses.enemy_occupied
    local rule = type(clause) == "table" and clause.id or tostring(clause)
    local text = type(clause) == "table" and clause.text or "a unit never enters a hex held by enemy units"
    return hex.refuse(rule, string.format("%s cannot move to %s: %s; %s holds %s", u.id, to, text, to,
      table.concat(held, ", ")))
  end
  -- (German units enter neutral countries: that invades them, 16.2; only Allied units are kept
  -- out, 16.1)
  local halved = halved_ma(u)
  local stops = u.side == "allied" and "an enemy ZOC, F40-6.2; a neutral country, F40-16.1"
    or "an enemy ZOC, F40-6.2"
  return hex.refuse("F40-9.1", string.format("%s cannot reach %s this phase (%s MP%s); `hexwar reach` "
    .. "lists where it can, and a path given hex by hex names what stops it (%s)", u.id, to,
    common.mp_str(common.budget(u)), halved and ", " .. halved or "", stops))
end

-- F40-16.2: the cheapest path the search gives to a hex may cross a neutral country the hex
-- is not in (an invasion of it), where a path as cheap keeps out of it: the legal list and a
-- move named by its destination take that one (a German move from 2907 to 3107, two German
-- hexes, was listed through Dutch 3007 and invaded three countries). `reach`: the unit's reach
-- with paths, changed in place; one more search per country of destination that needs it.
local NEUTRAL_ORDER = { "netherlands", "belgium", "luxembourg", "switzerland" }
local function spare_neutral_countries(u, reach, blocked)
  local politics = require("france1940.politics")
  local detours, keys = nil, {}
  for label, entry in pairs(reach) do
    local dest = politics.country_of(label) or ""
    local path = entry.path
    for i = 1, #path - 1 do
      local c = politics.country_of(path[i])
      if c ~= dest and politics.is_neutral(c) then
        detours = detours or {}
        if not detours[dest] then detours[dest] = {}; keys[#keys + 1] = dest end
        local list = detours[dest]
        list[#list + 1] = label
        break
      end
    end
  end
  if not detours then return reach end
  table.sort(keys)
  for _, dest in ipairs(keys) do
    local avoid = {}
    for _, l in ipairs(blocked or {}) do avoid[#avoid + 1] = l end
    for _, c in ipairs(NEUTRAL_ORDER) do
      if c ~= dest and politics.is_neutral(c) then
        for _, l in ipairs(common.zone(c)) do avoid[#avoid + 1] = l end
      end
    end
    local spared = hex.path.reach(u.id, common.budget(u), { paths = true, blocked = avoid })
    for _, label in ipairs(detours[dest]) do
      local other = spared[label]
      if other and other.cost <= reach[label].cost then reach[label] = other end
    end
  end
  return reach
end

-- The path of a move as given, or, for one hex beyond the unit's neighbours (`to = "2508"`: a
-- player names where, not how), the cheapest path the unit may take there this phase, as the
-- legal list gives it. A path that would enter a neutral country on the way (an invasion,
-- 16.2) is not chosen for the player: refused, asking for the path. nil and the refusal when
-- there is none.
function movement.path_named(u, path)
  local to = path and #path == 1 and path[1]
  if not to or not u.at or not hex.map.is_hex(to) or hex.map.distance(u.at, to) <= 1 then
    return path
  end
  local blocked = require("france1940.restrictions").blocker()(u)
  local reach = hex.path.reach(u.id, common.budget(u), { paths = true, blocked = blocked })
  if reach[to] then reach = spare_neutral_countries(u, { [to] = reach[to] }, blocked) end
  local found = reach[to]
  if not found then return nil, movement.unreachable(u, to) end
  local politics = require("france1940.politics")
  for i = 1, #found.path - 1 do
    local country = politics.country_of(found.path[i])
    if politics.is_neutral(country) and country ~= politics.country_of(to) then
      return nil, hex.refuse("F40-16.2", string.format("the cheapest path of %s to %s enters %s, "
        .. "neutral, at %s: that would invade it; give the path", u.id, to, country, found.path[i]))
    end
  end
  return found.path
end

function movement.register()
  hex.rules.declare("movement", movement.declaration)

  hex.commands.define("move", {
    args = { unit = "unit", path = "path" },
    -- `viewed`: the unit's view when a wrapper has just read it (restrictions.wrap), so the
    -- command reads it once.
    resolve = function(cmd, side, viewed)
      local u = viewed or hex.units.get(cmd.unit or "")
      if not u then return hex.refuse("F40-9.1", common.no_unit(cmd.unit)) end
      local rule, reason = movement.cannot_move(u, side)
      if rule then return hex.refuse(rule, reason) end
      local path, why_not = movement.path_named(u, cmd.path)
      if not path then return why_not end
      local cost = hex.path.check(u.id, path, common.budget(u))
      if type(cost) ~= "number" then return movement.explained(u, cost) end -- the engine's refusal
      local events = {}
      for _, label in ipairs(path) do
        events[#events + 1] = { event = "UnitEnteredHex", unit = u.id, hex = label }
      end
      events[#events + 1] = { event = "UnitMoved", unit = u.id, from = u.at,
        to = path[#path], path = path, cost = cost }
      events[#events + 1] = { event = "UnitStatusChanged", unit = u.id, add = { "moved" } }
      events[#events + 1] = hex.state.set("mp_spent", common.with(hex.state.get("mp_spent"), u.id, cost))
      return events
    end,
    -- `filter.unit` (hex.commands.legal): only that unit's moves.
    legal = function(side, filter)
      if not common.is_movement_phase() or hex.state.side() ~= side then return {} end
      local out = {}
      local blocked = require("france1940.restrictions").blocker()
      for _, u in ipairs(common.units_for(side, filter)) do
        if u.at and not movement.cannot_move(u, side) then
          local mine = blocked(u)
          local reach = hex.path.reach(u.id, common.budget(u), { paths = true, blocked = mine })
          spare_neutral_countries(u, reach, mine)
          for _, label in ipairs(common.sorted_keys(reach)) do
            out[#out + 1] = { command = "move", unit = u.id, path = reach[label].path }
          end
        end
      end
      return out
    end,
  })

  hex.rules.query("reach", function(unit_id)
    return movement.reach(require("lib").asked_unit(unit_id))
  end)

  -- Per-phase marks are cleared when a phase ends, before anything else reacts to the end of
  -- the phase (common.CLEAR_MARKS_FIRST): other reactions may take units out of play
  -- (surrenders, 16.3/16.4; para withdrawals, 11.3), and a mark cleared after that would name a
  -- unit no longer in play.
  hex.events.on("PhaseEnded", function()
    local out = {}
    for _, id in ipairs(common.ids_with({ "moved", "railed" })) do
      out[#out + 1] = { event = "UnitStatusChanged", unit = id, remove = { "moved", "railed" } }
    end
    if hex.state.get("mp_spent") ~= nil then out[#out + 1] = hex.state.set("mp_spent", nil) end
    return out
  end, common.CLEAR_MARKS_FIRST)
end

return require("lib.spelling").strict("france1940.movement", movement)
