-- The designer's test API (docs/testing.md). Runs in the test file's own sandboxed VM; the
-- games it starts live in Rust (`__host`), each with its own rules VM.
local host = __host
__host = nil

local tests = {}

-- test("name", function(t) ... end): registers a test; they run in file order.
function test(name, fn)
  if type(name) ~= "string" or type(fn) ~= "function" then
    error("test(name, function(t) ... end): give a name and a function", 2)
  end
  tests[#tests + 1] = { name = name, fn = fn }
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    return a < b
  end)
  return keys
end

local function is_array(t)
  local n = #t
  local count = 0
  for _ in pairs(t) do count = count + 1 end
  return count == n
end

-- A value as text, tables with sorted keys (the same text every run). A table met again inside
-- itself is shown as `<cycle>`, and nesting below 50 levels as `{...}`, so a test that prints
-- a looping or very deep table gets text, not a stack overflow inside this file.
local MAX_SHOWN_DEPTH = 50
local function show(v, open, depth)
  if type(v) == "string" then return string.format("%q", v) end
  -- (a float printed with all the digits it needs: 0.1 + 0.2 showed as 0.3, like 0.3 itself)
  if math.type(v) == "float" and tonumber(tostring(v)) ~= v then
    return string.format("%.17g", v)
  end
  if type(v) ~= "table" then return tostring(v) end
  open, depth = open or {}, depth or 0
  if open[v] then return "<cycle>" end
  if depth >= MAX_SHOWN_DEPTH then return "{...}" end
  open[v] = true
  local parts = {}
  if is_array(v) then
    for _, x in ipairs(v) do parts[#parts + 1] = show(x, open, depth + 1) end
  else
    for _, k in ipairs(sorted_keys(v)) do
      local key = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and k or ("[" .. show(k, open, depth + 1) .. "]")
      parts[#parts + 1] = key .. " = " .. show(v[k], open, depth + 1)
    end
  end
  open[v] = nil
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- Deep equality. A pair of tables met again while it is being compared counts as equal (two
-- cycles of the same shape are equal), and below 200 levels tables are compared as values.
local MAX_COMPARED_DEPTH = 200
local function deep_eq(a, b, open, depth)
  if type(a) ~= type(b) then return false end
  if type(a) ~= "table" or a == b then return a == b end
  open, depth = open or {}, depth or 0
  if depth >= MAX_COMPARED_DEPTH then return false end
  open[a] = open[a] or {}
  if open[a][b] then return true end
  open[a][b] = true
  local same = true
  for k, v in pairs(a) do
    if not deep_eq(v, b[k], open, depth + 1) then same = false break end
  end
  if same then
    for k in pairs(b) do
      if a[k] == nil then same = false break end
    end
  end
  open[a][b] = nil
  return same
end

-- Where two values first differ (keys in sorted order): the path from the top (`.b[2]`), and
-- the actual and expected values there; nil when they do not differ. A key leading back to a
-- pair of tables already on the path is passed over (the difference is elsewhere in the cycle),
-- and the path stops after MAX_SHOWN_DEPTH steps.
local function first_difference(actual, expected, at, depth, path)
  depth, path = depth or 0, path or {}
  if type(actual) ~= "table" or type(expected) ~= "table" or depth >= MAX_SHOWN_DEPTH then
    if deep_eq(actual, expected) then return nil end
    return at, actual, expected
  end
  path[#path + 1] = { actual, expected }
  local function on_path(a, b)
    for _, pair in ipairs(path) do
      if pair[1] == a and pair[2] == b then return true end
    end
    return false
  end
  local union = {}
  for k in pairs(actual) do union[k] = true end
  for k in pairs(expected) do union[k] = true end
  for _, k in ipairs(sorted_keys(union)) do
    if not on_path(actual[k], expected[k]) and not deep_eq(actual[k], expected[k]) then
      local key = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and ("." .. k) or ("[" .. show(k) .. "]")
      return first_difference(actual[k], expected[k], at .. key, depth + 1, path)
    end
  end
  return at, actual, expected
end

-- An assertion that does not hold: the runner reports it as FAIL, apart from a test that
-- stopped on an error (ERROR). The mark, which the runner removes, tells the two apart.
local FAILED = "\1assertion\1"
local function fail(message, level)
  if type(message) ~= "string" then message = show(message) end
  error(FAILED .. message, (level or 1) + 2)
end

-- The game or its rules could not answer (a setup refused, a rules error): the test cannot go
-- on, which is an ERROR, not an assertion that failed.
local function crash(message, level)
  error(message, (level or 1) + 2)
end

local function command_text(cmd)
  return show(cmd)
end

local t = {}

-- The values `t.dice` set for the next command's rolls (nil: the seeded dice).
local next_dice = nil

-- Dice values as a message shows them: the first ten, then "...".
local function dice_text(values)
  return table.concat(values, ", ", 1, math.min(#values, 10)) .. (#values > 10 and ", ..." or "")
end

t.show = show
t.deep_eq = deep_eq

-- Starts a game: a scenario directory or file, optionally { seed = N, setup = "file.toml",
-- mods = { "variants/x.lua" } }.
function t.scenario(path, opts)
  if next_dice then
    crash("t.dice: the values set (" .. dice_text(next_dice)
      .. ") are for a command of this game, given before t.scenario starts another")
  end
  local ok, err = host.start(path, opts or {})
  if not ok then crash("t.scenario: " .. err) end
end

-- The most values one t.dice may set (each is a roll of the one command they are for).
local MAX_DICE = 1000

-- Sets the values the next command's dice rolls take, in order, instead of the seeded ones.
function t.dice(values)
  if type(values) ~= "table" then crash("t.dice: a list of values expected, got " .. type(values)) end
  local n = 0
  for _ in pairs(values) do n = n + 1 end
  if n ~= #values or n == 0 then crash("t.dice: a list of values expected, { 6, 1, ... }") end
  if n > MAX_DICE then crash("t.dice: " .. n .. " values: one command takes at most " .. MAX_DICE) end
  -- (a copy: the caller's table changed afterwards would pass values these checks never saw)
  local copy = {}
  for i, v in ipairs(values) do
    if math.type(v) ~= "integer" or v < 1 or v > 0xFFFFFFFF then
      crash("t.dice: value #" .. i .. " is " .. show(v) .. ", not a die's face (a whole number from 1)")
    end
    copy[i] = v
  end
  next_dice = copy
end

-- Gives `cmd` through the host with the values `t.dice` set, which it alone takes.
local function submit(side, cmd)
  local dice = next_dice
  next_dice = nil
  return host.submit(side, cmd, dice)
end

-- Gives a command: the events, or nil and the refusal { rule, reason }.
function t.submit(side, cmd)
  local r = submit(side, cmd)
  if r.error then crash("t.submit: " .. r.error) end
  if r.refused then return nil, { rule = r.rule, reason = r.reason } end
  return r.events
end

-- A command that must be accepted, its events; `what` names the test API function called
-- (reached by tail calls, so the errors point at the test's line).
local function accepted(what, side, cmd)
  local r = submit(side, cmd)
  if r.error then crash(what .. ": " .. r.error) end
  if r.refused then
    fail(string.format("expected %s to be accepted\n  refused: %s: %s", command_text(cmd), r.rule, r.reason))
  end
  return r.events
end

-- Gives a command that must be accepted: its events.
function t.ok(side, cmd)
  return accepted("t.ok", side, cmd)
end

-- Gives a command that must be refused by `rule` (any rule when nil): the refusal.
function t.expect_refused(side, cmd, rule)
  local r = submit(side, cmd)
  if r.error then crash("t.expect_refused: " .. r.error) end
  if not r.refused then
    fail(string.format("expected %s to be refused by %s\n  accepted: %s", command_text(cmd),
      rule or "a rule", show(r.events)))
  end
  if rule and r.rule ~= rule then
    fail(string.format("expected %s to be refused by %s\n  refused by: %s: %s", command_text(cmd), rule,
      r.rule, r.reason))
  end
  return { rule = r.rule, reason = r.reason }
end

-- Ends the current phase of `side` (default: the phasing side); its events.
function t.end_phase(side)
  return accepted("t.end_phase", side or host.state().side, { command = "end_phase" })
end

function t.query(name, arg)
  local r = host.query(name, arg)
  if r.error then crash("t.query: " .. r.error) end
  return r.answer
end

-- The hexes a unit can reach this phase: { ["0302"] = 2, ... }.
function t.reach(unit)
  local r = host.reach(unit)
  if r.error then crash("t.reach: " .. r.error) end
  return r.answer
end

-- The command the side's Lua bot gives now (a table; an index it answers is read from the
-- legal list), asked as `hexwar run` asks it, with `seed` (default 0).
function t.bot(side, seed)
  local r = host.bot(side, seed)
  if r.error then crash("t.bot: " .. r.error) end
  return r.answer
end

-- The side's legal commands (default: the phasing side's). A side the scenario does not have is
-- an error, not an empty list that a test would read as "none".
function t.legal(side)
  if side == nil and host.state().side == nil then
    crash("t.legal: no side is to play now (a simultaneous step, or the game is over): name the side")
  end
  local r = host.legal(side)
  if r.error then crash("t.legal: " .. r.error) end
  return r
end
-- The unit as it stands, nil when it is out of play (eliminated, say).
function t.unit(id) return host.unit(id) end
function t.units() return host.units() end
-- Whether unit `id` carries the status `flag` (t.unit's `status` is a list, left out when empty;
-- a unit out of play carries none). An id no unit ever had is an error: a misspelt id read as
-- "no such status" passed the test.
function t.has_status(id, flag)
  local unknown = host.unit_unknown(id)
  if unknown then crash("t.has_status: " .. unknown) end
  local u = host.unit(id)
  for _, f in ipairs(u and u.status or {}) do
    if f == flag then return true end
  end
  return false
end
-- { turn, step, phase, side, over, control = {...}, vars = {...}, outcome }
function t.state() return host.state() end
-- Every event applied so far.
function t.log() return host.log() end
-- Overlays a position: { turn = 2, phase = "combat", units = { {id=..., side=..., type=..., at=...} }, ... }.
function t.setup(position)
  local ok, err = host.setup(position)
  if not ok then crash("t.setup: " .. err) end
end

function t.eq(actual, expected, what)
  if not deep_eq(actual, expected) then
    local message = string.format("%s\n  expected: %s\n    actual: %s", what or "values differ", show(expected), show(actual))
    -- (in tables, where: a long listing is hard to compare by eye)
    if type(actual) == "table" and type(expected) == "table" then
      local at, a, e = first_difference(actual, expected, "")
      if at and at ~= "" then
        message = message .. string.format("\n  first difference at %s: expected %s, actual %s", at, show(e), show(a))
      end
    end
    fail(message)
  end
end

function t.truthy(v, what)
  if not v then fail((what or "expected a true value") .. "\n    actual: " .. show(v)) end
end

function t.fail(message) fail(message) end

-- The runner's: clears what t.dice set, and says what a test set and never rolled (nil when
-- nothing): the values are for the test's next command, never for the next test's.
local function dice_left()
  local left = next_dice
  next_dice = nil
  return left and dice_text(left)
end

return tests, t, dice_left
