-- france1940/sequence: the sequence of play (F40-9.1, 18.1) and the start of each assault.
--
-- Reading chosen (docs/france1940.md, "Sequence of play"): an assault belongs to one player
-- ("le joueur en phase"; 9.1 "la phase de mouvement du premier assaut": one movement phase per
-- assault; 17.3 "le premier assaut du joueur"; 17.6 "l'assaut allié"; 16.3 "la fin d'un tour
-- allié"). A turn is the German player-turn (German assaults 1 and 2) then the Allied
-- player-turn (Allied assaults 1 and 2); each assault is a movement phase then a combat phase.
-- Turn 1 (F40-18.1) gives each player a single assault.
--
-- When the movement phase that opens an assault starts, this file emits, in order:
--   VarSet assault = 1|2                 (read by common.assault(): 9.1 budgets)
--   Custom AssaultStarted {turn, side, assault}   (airborne.lua: F40-11.2)
--   Custom AssaultSupply  {turn, side, assault}   (supply.lua: F40-8.3 judgment)
-- The two custom events are separate so that the supply judgment sees the eliminations of
-- 11.2 (handlers of one event all see the same state; reactions run depth first).
-- When the combat phase that closes an assault ends: Custom AssaultEnded (airborne: F40-11.3).
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")

local sequence = {}

local function assault_steps(side)
  return {
    { side = side, phase = "movement", assault = 1 },
    { side = side, phase = "combat", assault = 1 },
    { side = side, phase = "movement", assault = 2 },
    { side = side, phase = "combat", assault = 2 },
  }
end

-- The declared sequence; also kept here (as data) to know each step's assault number.
sequence.steps = {}
for _, s in ipairs(assault_steps("german")) do sequence.steps[#sequence.steps + 1] = s end
for _, s in ipairs(assault_steps("allied")) do sequence.steps[#sequence.steps + 1] = s end
sequence.turn1 = {                                                           -- F40-18.1
  { side = "german", phase = "movement", assault = 1 },
  { side = "german", phase = "combat", assault = 1 },
  { side = "allied", phase = "movement", assault = 1 },
  { side = "allied", phase = "combat", assault = 1 },
}

function sequence.step(turn, index)
  local steps = (turn == 1) and sequence.turn1 or sequence.steps
  return steps[index + 1]
end

-- Declares the sequence from `sequence.steps` and `sequence.turn1`. A variant that changes them
-- (interleaved assaults) calls it again while it loads: the engine then plays the order the
-- tables say, and the assault numbers, read from the same tables, follow.
function sequence.declare()
  hex.rules.sequence { steps = sequence.steps, special = { [1] = sequence.turn1 } }
end

function sequence.register()
  sequence.declare()

  -- Units of still-neutral countries carry the `neutral` status (no ZOC, no occupation, always
  -- supplied: F40-R8, R11, R12) so that the engine's unit selectors can name them.
  hex.events.on("GameStarted", function()
    local out = {}
    for _, u in ipairs(hex.units.all()) do
      if u.side == "neutral" and not u.status[common.NEUTRAL] then
        out[#out + 1] = { event = "UnitStatusChanged", unit = u.id, add = { common.NEUTRAL } }
      end
    end
    return out
  end, 100)

  -- The same for a unit of side `neutral` placed later (a `--setup` position's units arrive as
  -- UnitPlaced after GameStarted): R8, R11, R12 and 16.1 hold for it too.
  hex.events.on("UnitPlaced", function(ev)
    local id = ev.unit and ev.unit.id
    local u = id and hex.units.get(id)
    if u and u.side == "neutral" and not u.status[common.NEUTRAL] then
      return { { event = "UnitStatusChanged", unit = u.id, add = { common.NEUTRAL } } }
    end
  end, 100)

  -- A `--setup` position (hex.rules.setup): its unit events come first, then these. Territory is
  -- judged on the new position as a whole (territory.lua, `PositionSet`). A setup naming a
  -- `turn` or `phase` starts that phase (PhaseStarted below: supply judged when it is a movement
  -- phase, F40-8.3); one that names neither puts its units at the current step, and when that is
  -- a movement phase, the start of an assault, supply is judged on them now (8.3: isolated units
  -- have half their MA, R7), as it was on the units they replace. A setup naming a combat phase
  -- has its supply judged on its own position too (below).
  hex.rules.setup(function(t)
    -- (the engine's keys and the one this module reads: another, `invade` for `invaded`, was
    -- set aside and the position played without it)
    local keys = { "invaded", "phase", "pools", "side", "turn" }
    -- (`unit`: the [[unit]] tables, which the engine has placed)
    local unknown = require("lib.spelling").unknown_key(t, { "unit", table.unpack(keys) })
    if unknown then
      return hex.refuse("F40-setup", unknown .. " (a France 1940 setup holds "
        .. table.concat(keys, ", ") .. " and [[unit]] tables)")
    end
    local invaded = t.invaded
    if invaded ~= nil then
      local politics = require("france1940.politics")
      local known = {}
      for _, c in ipairs(politics.COUNTRIES) do known[c] = true end
      if type(invaded) ~= "table" then
        return hex.refuse("F40-16.2", "`invaded` must be a list of countries (" .. table.concat(politics.COUNTRIES, ", ") .. ")")
      end
      for i, c in ipairs(invaded) do
        if not known[c] then
          return hex.refuse("F40-16.2", "`invaded` #" .. i .. ": '" .. tostring(c) .. "' is not one of " .. table.concat(politics.COUNTRIES, ", "))
        end
      end
    end
    local out = {}
    if t.pools ~= nil then
      local spent, why = require("france1940.reserves").setup_pools(t.pools, t.unit)
      if not spent then return hex.refuse("F40-setup", why) end
      out = spent
    end
    out[#out + 1] = hex.events.emit("PositionSet", { invaded = invaded, turn = t.turn })
    local names_step = t.turn ~= nil or t.phase ~= nil
    if not names_step and common.is_movement_phase() then
      out[#out + 1] = hex.events.emit("AssaultSupply",
        { turn = hex.state.turn(), side = hex.state.side(), assault = common.assault() })
    elseif t.phase == "combat" then
      -- F40-8.3 judges supply at the start of the assault, which a setup naming a combat phase
      -- skips to: the setup's position stands for it, judged now (its units had fought at full
      -- strength, unsupplied or not). `setup` marks this judgment in the log. (A setup naming
      -- no step leaves the game where it stands, its judgment made.)
      out[#out + 1] = hex.events.emit("AssaultSupply", { setup = true })
    end
    return out
  end)

  hex.events.on("PhaseStarted", function(ev)
    local step = sequence.step(ev.turn, ev.step)
    if step and step.side ~= ev.side then
      error("france1940.sequence: step " .. ev.step .. " of turn " .. ev.turn .. " is " .. tostring(ev.side)
        .. "'s in the engine but " .. tostring(step.side) .. "'s in sequence.steps: a variant that changes "
        .. "the steps calls sequence.declare() again while it loads", 0)
    end
    if not step or step.phase ~= "movement" then return nil end
    local data = { turn = ev.turn, side = ev.side, assault = step.assault }
    return {
      hex.state.set("assault", step.assault),
      hex.events.emit("AssaultStarted", data),
      hex.events.emit("AssaultSupply", data),
    }
  end, 100)

  hex.events.on("PhaseEnded", function(ev)
    local step = sequence.step(ev.turn, ev.step)
    if not step or step.phase ~= "combat" then return nil end
    return hex.events.emit("AssaultEnded", { turn = ev.turn, side = ev.side, assault = step.assault })
  end, 100)
end

return require("lib.spelling").strict("france1940.sequence", sequence)
