-- france1940/evacuation: naval evacuation (F40-10.4).
--
-- Command {command = "evacuate", unit = ID}: an Allied unit standing in a `port` hex, during
-- an Allied movement phase, leaves the game for good: UnitRemoved with reason "evacuated" (it
-- is not eliminated, so it gives no victory points).
-- Readings (docs/france1940.md):
--   * "the unit spends 1 MP in the port hex": the unit must still have at least 1 MP of this
--     phase's budget (common.budget: MA, second-assault and isolation halvings) after what it
--     spent moving (variable `mp_spent`): it may start the phase in the port, or move there and
--     evacuate with 1 MP to spare. A unit that went by rail has spent its movement.
--   * at most 3 division-equivalents per port per Allied movement phase (one corps, or three
--     divisions; regiments count 0): variable `evacuated` = {port = equivalents}, cleared when
--     the phase ends.
--   * a Dutch (Swiss) unit not freed by a forced retreat is not evacuated from its country while
--     a German unit is in it: F40-16.3 (16.6) forbid leaving it voluntarily, and evacuation
--     leaves it as a move out would.
--   * every evacuated BEF corps (attrs.bef, size XXX) is counted in `bef_corps_evacuated`
--     (F40-16.4 reads it).
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")
local politics = require("france1940.politics")

local evacuation = {}

evacuation.PER_PORT = 3

function evacuation.refusal(u, side)
  if not u then return "F40-10.4", "evacuate needs a unit in play" end
  if side ~= "allied" or u.side ~= "allied" then return "F40-10.4", "only Allied units are evacuated" end
  if not common.is_movement_phase() or hex.state.side() ~= "allied" then
    return "F40-10.4", "units are evacuated in an Allied movement phase"
  end
  if not u.at or not hex.map.has_feature(u.at, "port") then
    return "F40-10.4", u.id .. " is not in a port hex"
  end
  -- (reading: evacuation leaves the country as a move out would; a unit freed by a forced
  -- retreat operates normally)
  local home, rule = politics.home_bound(u)
  if home and politics.german_inside(home) then
    return rule, string.format("%s may not leave %s while a German unit is in it (evacuation leaves it too)", u.id, home)
  end
  if u.status.railed then return "F40-10.4", u.id .. " has moved by rail and has no MP left" end
  local left = common.budget(u) - common.spent(u)
  if left < 1 then
    return "F40-10.4", string.format("%s has %s MP left; evacuation costs 1 MP in the port hex", u.id, common.mp_str(left))
  end
  local done = hex.state.get("evacuated", u.at) or 0
  local eq = common.equivalents(u)
  if done + eq > evacuation.PER_PORT then
    return "F40-10.4", string.format(
      "port %s has evacuated %d division-equivalent%s this phase; %s (%d) would exceed %d",
      u.at, done, done == 1 and "" or "s", u.id, eq, evacuation.PER_PORT)
  end
  return nil
end

function evacuation.register()
  hex.commands.define("evacuate", {
    args = { unit = "unit" },
    resolve = function(cmd, side)
      local u = hex.units.get(cmd.unit or "")
      if not u then return hex.refuse("F40-10.4", common.no_unit(cmd.unit)) end
      local rule, reason = evacuation.refusal(u, side)
      if rule then return hex.refuse(rule, reason) end
      local done = hex.state.get("evacuated") or {}
      local events = {
        hex.state.set("evacuated", common.with(done, u.at, (done[u.at] or 0) + common.equivalents(u))),
        { event = "UnitRemoved", unit = u.id, reason = "evacuated" },
      }
      if u.attrs.bef and u.size == "XXX" then
        events[#events + 1] = hex.state.set("bef_corps_evacuated", (hex.state.get("bef_corps_evacuated") or 0) + 1)
      end
      return events
    end,
    -- `filter.unit` (hex.commands.legal): only that unit.
    legal = function(side, filter)
      if side ~= "allied" then return {} end
      if not common.is_movement_phase() or hex.state.side() ~= "allied" then return {} end
      local out = {}
      local units
      if filter and filter.unit then
        units = common.units_for(side, filter)
      else
        -- Only units standing in a port may be evacuated: full views of those alone.
        units = {}
        local sides, ats = hex.units.list("side"), hex.units.list("at")
        for i, id in ipairs(hex.units.list("id")) do
          local at = ats[i]
          if sides[i] == side and at and common.has_feature(at, "port") then units[#units + 1] = hex.units.get(id) end
        end
      end
      for _, u in ipairs(units) do
        if not evacuation.refusal(u, side) then
          out[#out + 1] = { command = "evacuate", unit = u.id }
        end
      end
      return out
    end,
  })

  hex.events.on("PhaseEnded", function()
    if hex.state.get("evacuated") ~= nil then return hex.state.set("evacuated", nil) end
  end)
end

return require("lib.spelling").strict("france1940.evacuation", evacuation)
