-- france1940/territory: friendly territory (F40-7.1 .. 7.3, R11) kept in the game's control map.
--
-- 7.1 is a standing definition: at every moment, the start of the game included, a hex is
-- friendly to a player (a) occupied by one of its units, else (b) in the uncontested ZOC of one
-- of its units, else (c) to the player that last did (a) or (b), else (d) to its owner at the
-- start. The scenario's `[control]` is the 7.3 baseline of (d) (France Allied, Germany German,
-- the rest nobody's); at `GameStarted`, once the start handlers have run (sequence.lua gives
-- still-neutral units their status), 7.1 is judged once on the start position (`PositionJudged`):
-- a hex of a neutral country in the uncontested ZOC of one side's start units is that side's
-- from the start (R11: the rules apply inside neutral countries too; ZOC and occupation of
-- still-neutral units count for nobody). After every change of position -- a move, an
-- elimination, a removal, a placement, a change of side, a unit becoming or ceasing to be
-- disorganized (its ZOC) -- the engine's `hex.path.control()` gives the ControlChanged events
-- that 7.1 calls for (occupation, then uncontested ZOC, then the last holder). (The reserves
-- reserves.lua sends to their pools at GameStarted, from off the map, are judged too, before the
-- PositionJudged below: the first such removal judges the start position, the later ones and
-- PositionJudged find nothing more to change, so France 1940 starts with the control of one
-- judgment of its start position.)
--
-- Reading (docs/france1940.md): positions are snapshots (R9): control is judged on the position
-- after each event, so a hex a unit only passes through during a move does not change hands.
--
-- A `--setup` position (hex.rules.setup) is one snapshot too, with no history of its own: its
-- units are placed one event at a time, and judging 7.1 after each would let the order of the
-- file, and the units it replaces (the scenario's start position, judged at GameStarted), decide
-- who holds a hex through 7.1(c). So after a setup (and the invasions it names) every hex goes
-- back to its owner at the start of the game (7.1d, 7.3: France Allied, Germany German, the
-- rest nobody's; R11: the hexes of a country that joined, or has surrendered since, Allied) and 7.1 is judged once on the whole new
-- position (`PositionSet`, emitted by sequence.lua's setup hook, then `PositionReset`), as the
-- start position is judged at GameStarted.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")

local territory = {}
local NEUTRAL = common.NEUTRAL

local function update()
  return hex.path.control()
end

-- The owner of a hex at the start of the game (7.3), or of a country that is neutral no more
-- (R11: "a hex nobody has held is Allied"), one that has surrendered since included: it was
-- neutral and is no longer, and a setup's position has no history of who held its hexes.
local function start_owner(label)
  local politics = require("france1940.politics")
  local country = politics.country_of(label)
  if country == "germany" then return "german" end
  local status = politics.status(country)
  if country == "france" or status == "allied" or status == "surrendered" then return "allied" end
  return nil
end

function territory.register()
  -- PositionSet (emitted by sequence.lua's setup hook after the setup's unit events): control
  -- back to the start (7.3), then 7.1 judged once, in PositionReset: after the invasions the
  -- setup names (politics.lua's PositionSet handler runs first, and its events and their
  -- reactions are applied before this one's), so that the joined countries' units and hexes
  -- are Allied in the one judgment, as in a snapshot (R9, R11): judged while they were still
  -- neutral, a hex in the ZOC of both sides became German by 7.1(c).
  hex.events.on("PositionSet", function()
    return hex.events.emit("PositionReset", {})
  end)
  hex.events.on("PositionReset", function()
    local out = {}
    for _, label in ipairs(common.hexes()) do
      local side = start_owner(label)
      if hex.state.control(label) ~= side then
        out[#out + 1] = { event = "ControlChanged", hex = label, side = side }
      end
    end
    out[#out + 1] = hex.events.emit("PositionJudged", {})
    return out
  end)
  hex.events.on("PositionJudged", update)
  -- The start of the game (7.1 on the 7.3 baseline): a custom event, so that the judgment sees
  -- the state after the reactions of the other GameStarted handlers (the `neutral` statuses of
  -- sequence.lua, priority 100; the pools of reserves.lua, 90), not the state they all saw.
  hex.events.on("GameStarted", function()
    return hex.events.emit("PositionJudged", {})
  end, -10)
  for _, name in ipairs({ "UnitMoved", "UnitEliminated", "UnitRemoved", "UnitSideChanged" }) do
    hex.events.on(name, update, -10)
  end
  hex.events.on("UnitPlaced", function(ev)
    if ev.unit and ev.unit.at then
      -- A unit of side `neutral` placed without its status (a --setup position) gets it from
      -- sequence.lua first; the judgment follows that change (below), so that its ZOC and
      -- occupation never count (R11).
      local u = hex.units.get(ev.unit.id)
      if u and u.side == "neutral" and not u.status[NEUTRAL] then return nil end
      return update()
    end
  end, -10)
  hex.events.on("UnitStatusChanged", function(ev)
    for _, flag in ipairs(ev.add or {}) do
      if flag == "disorganized" then return update() end
    end
    -- A unit ceasing to be disorganized, or to be neutral (its country joins, 16.2: its
    -- occupation and ZOC count from now on, R11).
    for _, flag in ipairs(ev.remove or {}) do
      if flag == "disorganized" or flag == NEUTRAL then return update() end
    end
  end, -10)
end

return require("lib.spelling").strict("france1940.territory", territory)
