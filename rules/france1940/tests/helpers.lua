-- What the France 1940 rule tests share (`require("helpers")`): a unit table, the commands, a
-- refusal as the player reads it, events picked out of a list, and the walk through a turn.
local helpers = {}

-- The politics fixture (tests/fixtures/f40/politics): France columns 01-02 (its turn-1
-- deployment zone column 02), the Netherlands 0301, 0401 (its two major cities) and 0302 (a
-- port), Belgium 0402, 0403 (its major cities) and 0303, Luxembourg 0304, 0404, Switzerland
-- 0305, 0405, Germany columns 05-06. Ports 0101, 0302.
helpers.POLITICS = "tests/fixtures/f40/politics"
-- The reserves fixture (tests/fixtures/f40/reserves): France columns 01-04 (port 0101, Paris
-- the one hex 0202, assembly point 0302), Germany columns 05-06; four turns.
helpers.RESERVES = "tests/fixtures/f40/reserves"
-- The airborne fixture (tests/fixtures/f40/airborne): the German paras and the 22nd Airlanding.
helpers.AIRBORNE = "tests/fixtures/f40/airborne"

-- An infantry division of `side` and `nation` at `at` (MA 4, strength 2), with `more`'s keys.
function helpers.unit(id, side, nation, at, more)
  local u = { id = id, side = side, nation = nation, type = "infantry", size = "XX", ma = 4, strength = 2, at = at }
  for k, v in pairs(more or {}) do u[k] = v end
  return u
end

function helpers.move(id, path) return { command = "move", unit = id, path = path } end
function helpers.place(id, to) return { command = "place", unit = id, to = to } end
function helpers.drop(id, to) return { command = "drop", unit = id, to = to } end

-- The refusal of `cmd` as the player reads it, "RULE: reason"; fails when it is accepted.
function helpers.refusal(t, side, cmd)
  local events, refused = t.submit(side, cmd)
  if events ~= nil then t.fail("accepted: " .. t.show(cmd)) end
  return refused.rule .. ": " .. refused.reason
end

-- The VarSet of `key` among `events`.
function helpers.var_set(events, key)
  for _, e in ipairs(events) do if e.event == "VarSet" and e.key == key then return e end end
  return nil
end

-- The Custom events of `events` named `name`.
function helpers.customs(events, name)
  local out = {}
  for _, e in ipairs(events) do
    if e.event == "Custom" and e.name == name then out[#out + 1] = e end
  end
  return out
end

-- Ends phases until the turn changes (or the game ends); every event, and for each end_phase
-- command the step it ended, the side to play after it and its events, in order.
function helpers.play_out_turn(t)
  local turn = t.state().turn
  local all, per_phase = {}, {}
  while t.state().turn == turn and not t.state().over do
    local step = t.state().step
    local events = t.end_phase()
    per_phase[#per_phase + 1] = { step = step, side = t.state().side, events = events }
    for _, e in ipairs(events) do all[#all + 1] = e end
  end
  return all, per_phase
end

-- Ends phases until `side`'s first assault (movement phase) of `turn`.
function helpers.to_first_assault(t, turn, side)
  while not (t.state().turn == turn and t.state().side == side and t.state().phase == "movement"
      and t.state().vars.assault == 1) do
    t.end_phase()
  end
end

return helpers
