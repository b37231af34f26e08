-- france1940/stacking: F40-5.1 .. 5.3 and R14, checked when a side ends a phase.
--
-- F40-5.1 limits hold at the end of each phase only: `end_phase` is refused while a hex holds
-- too much. Readings (docs/france1940.md): only the units of the side ending the phase are
-- counted (R14: "count one side's units"); the other side's stacks are its own business at the
-- end of its own phases. Hexes are checked in label order, 5.2 before 5.3 in each hex.
--   F40-5.2 at most 4 division-equivalents (XX = 1, XXX = 3, III = 0)
--   F40-5.3 at most 3 armored division-equivalents (an armored corps = 3)
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")

local stacking = {}

stacking.LIMIT = 4           -- F40-5.2
stacking.ARMORED_LIMIT = 3   -- F40-5.3

-- What a refusal lists after the limit: the units of `side` at `label` that count toward it
-- (`count(u)`: their division-equivalents, or armored ones for 5.3), by id with what each
-- counts, then which of them can still move this phase (a moved unit cannot move again, 9.1),
-- so that the player sees which move brings the hex within the limit: ": de-1-pz (1),
-- de-xv-ak (3); de-xv-ak can still move", and how many of them can move.
local function contents(label, side, count)
  local units = {}
  for _, u in ipairs(hex.units.at(label)) do
    if u.side == side and count(u) > 0 then units[#units + 1] = u end
  end
  table.sort(units, function(a, b) return a.id < b.id end)
  local parts, movers = {}, {}
  local cannot_move = require("france1940.movement").cannot_move
  for _, u in ipairs(units) do
    parts[#parts + 1] = string.format("%s (%s)", u.id, common.mp_str(count(u)))
    if not cannot_move(u, side) then movers[#movers + 1] = u.id end
  end
  local out = ": " .. table.concat(parts, ", ")
  if #movers > 0 then out = out .. "; " .. table.concat(movers, ", ") .. " can still move" end
  return out, #movers
end

-- What a refusal adds when every unit of `side` at `label` has moved this phase: no command can
-- bring the hex within the limits, so the phase cannot end as it was played (5.1 lets a hex
-- exceed them during the phase; the player takes the moves back).
local function stuck(label, side)
  for _, u in ipairs(hex.units.at(label)) do
    if u.side == side and not u.status.moved then return "" end
  end
  return string.format("; every %s unit there has moved, so no move can undo it: play the phase "
    .. "again from its start (a save from before it) with other moves (F40-5.1)", side)
end

-- The units a refusal lists, then, when none of them can move: the `stuck` tail when every
-- unit of the side there has moved, else (a unit moved by rail, a combat phase) that none of
-- them can move now.
local function tail(label, side, count)
  local listed, movers = contents(label, side, count)
  if movers > 0 then return listed end
  local why = stuck(label, side)
  if why == "" then why = "; none of them can move now" end
  return listed .. why
end

-- The first stacking violation of `side`'s units, as (rule, reason), or nil.
function stacking.violation(side)
  local stacks = common.stacks_of_side(side)
  local total, armored = stacks.total, stacks.armored
  -- The first violation in label order is that of the lowest label over a limit: found
  -- without sorting every hex (most of the time no hex is over).
  local first = nil
  for label, t in pairs(total) do
    if (t > stacking.LIMIT or armored[label] > stacking.ARMORED_LIMIT) and (not first or label < first) then
      first = label
    end
  end
  if not first then return nil end
  local label = first
  if total[label] > stacking.LIMIT then
    return "F40-5.2", string.format(
      "hex %s holds %d division-equivalents of %s units at the end of the phase (at most %d)%s",
      label, total[label], side, stacking.LIMIT, tail(label, side, common.equivalents))
  end
  return "F40-5.3", string.format(
    "hex %s holds %d armored division-equivalents of %s units at the end of the phase (at most %d)%s",
    label, armored[label], side, stacking.ARMORED_LIMIT, tail(label, side, common.armored_equivalents))
end

-- The limits a variant set, checked as the game starts (a limit of another type failed at the
-- first end of a phase, in another module, naming neither the variant nor the limit).
function stacking.check_limits()
  for _, name in ipairs({ "LIMIT", "ARMORED_LIMIT" }) do
    local limit = stacking[name]
    if type(limit) ~= "number" or not (limit >= 0) then
      error(string.format("%s: stacking.%s (a variant or mod sets it) is %s, not a number of division-equivalents (0 or more)",
        name == "LIMIT" and "F40-5.2" or "F40-5.3", name,
        type(limit) == "string" and string.format("the string %q", limit) or tostring(limit)), 0)
    end
  end
end

function stacking.register()
  hex.events.on("GameStarted", function()
    stacking.check_limits()
    return nil
  end)

  hex.commands.define("end_phase", {
    resolve = function(cmd, side)
      local phasing = hex.state.side()
      local who = side or phasing
      if who then
        local rule, reason = stacking.violation(who)
        if rule then return hex.refuse(rule, reason) end
      end
      return nil
    end,
    -- Exact: listed only when the phase may end now.
    legal = function(side)
      if hex.state.side() ~= side then return {} end
      if stacking.violation(side) then return {} end
      return { { command = "end_phase" } }
    end,
  })
end

return require("lib.spelling").strict("france1940.stacking", stacking)
