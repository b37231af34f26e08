-- DEMO-5, DEMO-6: attacks in the combat phase, resolved with the host's dice.
local combat = {}

function combat.register()
  hex.commands.define("attack", {
    -- (kinds: a target given as a list or a number is the player's malformed order, refused
    -- before resolve, not a rules error inside it)
    args = { unit = "unit", target = "unit" },
    resolve = function(cmd, side)
      local attacker, defender = hex.units.get(cmd.unit or ""), hex.units.get(cmd.target or "")
      -- (each named: "attack needs a unit and a target unit" was said of a target given but
      -- not in play)
      if not attacker then return hex.refuse("DEMO-5", "no unit '" .. tostring(cmd.unit) .. "' in play to attack") end
      if not defender then return hex.refuse("DEMO-5", "no unit '" .. tostring(cmd.target) .. "' in play to be attacked") end
      if hex.state.phase() ~= "combat" then return hex.refuse("DEMO-5", "attacks happen in the combat phase") end
      if attacker.side ~= side or defender.side == side then
        return hex.refuse("DEMO-5", "a unit attacks an enemy unit of the other side")
      end
      if attacker.status.attacked then return hex.refuse("DEMO-5", attacker.id .. " has already attacked") end
      if hex.map.distance(attacker.at, defender.at) ~= 1 then
        return hex.refuse("DEMO-5", defender.id .. " is not adjacent to " .. attacker.id)
      end
      local roll = hex.dice.roll(6)
      local total = roll + attacker.strength - defender.strength
      local result = "no effect"
      local events = {
        { event = "UnitStatusChanged", unit = attacker.id, add = { "attacked" } },
      }
      if total >= 6 then
        result = "defender eliminated"
        events[#events + 1] = { event = "UnitEliminated", unit = defender.id, reason = "side=" .. defender.side .. " combat" }
      elseif total <= 1 then
        result = "attacker eliminated"
        events[#events + 1] = { event = "UnitEliminated", unit = attacker.id, reason = "side=" .. attacker.side .. " combat" }
      end
      table.insert(events, 1, hex.events.emit("CombatResolved", {
        attacker = attacker.id, defender = defender.id, roll = roll, total = total, result = result,
      }))
      return events
    end,
    legal = function(side)
      if hex.state.phase() ~= "combat" then return {} end
      local out = {}
      for _, unit in ipairs(hex.units.of_side(side)) do
        if unit.at and not unit.status.attacked then
          for _, n in ipairs(hex.map.neighbors(unit.at)) do
            for _, enemy in ipairs(hex.units.at(n)) do
              if enemy.side ~= side then
                out[#out + 1] = { command = "attack", unit = unit.id, target = enemy.id }
              end
            end
          end
        end
      end
      return out
    end,
  })
end

return combat
