-- diplomacy.game -- the game API built over a rules table (standard or variant).
--
--   local game = require("diplomacy.game").new(rules)
--   game.new_position(board, setup)                 -> position
--   game.adjudicate(board, position, orders)        -> result, next_position
--   game.skip_phase(board_or_nil, position)         -> bool   (also game.skip_phase(position))
--   game.winner(board, position)                    -> power name or nil
--   game.build_sites(board, position, power)        -> sorted provinces where power may build
-- `board` may be the plain board table (compiled once and cached on it) or a compiled map.
-- See docs/diplomacy.md for the table shapes.

local map = require("diplomacy.map")
local adj = require("diplomacy.adjudicate")

local M = {}

local function copy_list(l)
  local c = {}
  for k = 1, #l do c[k] = l[k] end
  return c
end

function M.new(rules)
  local game = { rules = rules }

  function game.compile(board)
    return map.get(board)
  end

  -- a list of locations read through the map's aliases ({"STPETE", "MOS"} -> {"STP", "MOS"})
  local function canonical_locations(cm, list)
    local out = {}
    for k = 1, #list do out[k] = cm.canon[list[k]] or list[k] end
    return out
  end

  -- a setup's retreating units read through the map's aliases, as its units are: the unit, the
  -- province that dislodged it and its retreats (retreats {"STPETE"} -> {"STP"})
  local function canonical_dislodged(cm, list)
    local out = {}
    for k = 1, #list do
      local entry = list[k]
      local copy = entry -- (not a table: left for the setup's checks to refuse)
      if type(entry) == "table" then
        copy = {}
        for field, v in pairs(entry) do copy[field] = v end
        local u = type(entry.unit) == "string" and map.parse_unit(cm, entry.unit)
        if u then copy.unit = u.str end
        if type(entry.by) == "string" then copy.by = cm.canon[entry.by] or entry.by end
        if type(entry.retreats) == "table" then copy.retreats = canonical_locations(cm, entry.retreats) end
      end
      out[k] = copy
    end
    return out
  end

  -- setup = { phase = "S1901M", units = {POWER = {"A PAR", ...}}, centers = {POWER = {...}} | nil }
  -- (setup nil or without units: the board's start position; centers nil: the board's
  -- start_centers when the units are the start units, else the home centres of each power)
  function game.new_position(board, setup)
    local cm = map.get(board)
    setup = setup or {}
    local units, centers = {}, nil
    if setup.units then
      -- (a unit written with an alias of the map is kept as the game writes it: "A LIV" -> "A LVN")
      for p, l in pairs(setup.units) do
        local c = {}
        for k = 1, #l do
          local u = map.parse_unit(cm, l[k])
          c[k] = u and u.str or l[k]
        end
        units[p] = c
      end
    else
      for _, p in ipairs(cm.powers) do units[p] = copy_list(cm.power_info[p].start_units or {}) end
    end
    if setup.centers then
      centers = {}
      for p, l in pairs(setup.centers) do centers[p] = canonical_locations(cm, l) end
    else
      centers = {}
      for _, p in ipairs(cm.powers) do
        local info = cm.power_info[p]
        centers[p] = copy_list(info.start_centers or info.home_centers or {})
      end
    end
    local pos = {
      phase = setup.phase or cm.start_phase,
      units = adj.sorted_units(units),
      centers = adj.sorted_centers(centers),
    }
    if setup.dislodged then pos.dislodged = canonical_dislodged(cm, setup.dislodged) end
    for k, v in pairs(setup) do
      if pos[k] == nil and k ~= "phase" then pos[k] = v end
    end
    return pos
  end

  function game.adjudicate(board, position, orders)
    local cm = map.get(board)
    local _, _, k = map.split_phase(position.phase)
    orders = orders or {}
    if k == "M" then
      local result, next_pos = rules.movement(rules, cm, position, orders)
      return result, next_pos
    elseif k == "R" then
      return rules.retreats(rules, cm, position, orders)
    elseif k == "A" then
      return rules.adjustments(rules, cm, position, orders)
    end
    error("bad phase: " .. tostring(position.phase))
  end

  -- would this phase be skipped (a retreat phase with nothing to retreat, an adjustment phase with
  -- nothing to adjust)? Movement phases are never skipped.
  function game.skip_phase(board, position)
    if position == nil then position, board = board, nil end
    local _, _, k = map.split_phase(position.phase)
    if k == "R" then return not rules.has_retreats(rules, position) end
    if k == "A" then
      if not board then board = require("diplomacy.standard_board") end
      return not adj.adjustments_needed(rules, map.get(board), position.units or {}, position.centers or {})
    end
    return false
  end

  -- the provinces where `power` may build in `position`, sorted (rules.build_sites: its home
  -- centres in standard play); a build also needs the centre owned and empty
  function game.build_sites(board, position, power)
    local cm = map.get(board)
    local out = {}
    for p in pairs(rules.build_sites(rules, cm, power, position.centers or {})) do out[#out + 1] = p end
    table.sort(out)
    return out
  end

  function game.winner(board, position)
    return rules.winner(rules, map.get(board), position.centers or {}, position.phase)
  end

  -- Inside the hexwar host, a game made while rules modules load is the game the host drives:
  -- the standard module's, then a variant's made over it (a scenario lists the variant after
  -- "diplomacy"). Made later (in a test) or under plain Lua, it is only a library.
  if type(hex) == "table" and hex.rules.loading() then require("diplomacy.host").install(game) end
  return game
end

return M
