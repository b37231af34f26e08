-- rules/lib: helpers shared by every game's rules. Loaded first by scenarios that list "lib".
-- Everything is returned in one module table; nothing global.
local lib = {}

-- The units of `side` standing at `label`, as a list.
function lib.units_of_side_at(label, side)
  local out = {}
  for _, u in ipairs(hex.units.at(label)) do
    if u.side == side then out[#out + 1] = u end
  end
  return out
end

-- True when any unit not of `side` stands at `label`.
function lib.enemy_at(label, side)
  for _, u in ipairs(hex.units.at(label)) do
    if u.side ~= side then return true end
  end
  return false
end

-- True when a unit not of `side` stands next to `label`.
function lib.enemy_adjacent(label, side)
  for _, n in ipairs(hex.map.neighbors(label)) do
    if lib.enemy_at(n, side) then return true end
  end
  return false
end

-- The unit a query about one unit (`reach`) was asked of; a question that names none in play is
-- the asker's mistake (hex.rules.caller_error), said as the engine's own `reach` says it.
function lib.asked_unit(id)
  if type(id) ~= "string" then
    hex.rules.caller_error("the argument is a unit id (a string), not " .. tostring(id))
  end
  local u = hex.units.get(id)
  if not u then hex.rules.caller_error("no unit '" .. id .. "' in play") end
  return u
end

-- Sorted list of the keys of a table (for deterministic iteration; see docs/determinism).
function lib.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- A PhaseEnded handler that clears the per-phase status flags `flags` (e.g. {"moved",
-- "attacked"}) from every unit holding any of them.
function lib.clearing_phase_flags(flags)
  return function()
    local out = {}
    for _, u in ipairs(hex.units.all()) do
      for _, flag in ipairs(flags) do
        if u.status[flag] then
          out[#out + 1] = { event = "UnitStatusChanged", unit = u.id, remove = flags }
          break
        end
      end
    end
    return out
  end
end

return lib
