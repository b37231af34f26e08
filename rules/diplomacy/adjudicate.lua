-- diplomacy.adjudicate -- standard Diplomacy adjudication (DATC preferred resolutions).
--
-- Exposes `M.rules`: a table of replaceable functions. A variant copies it with M.extend(overrides)
-- and replaces only what it changes (the Francqueville variant replaces the retreat part).
--
--   rules.movement(rules, cm, position, orders)      -> result, next_position   (phase ...M)
--   rules.retreats(rules, cm, position, orders)      -> result, next_position   (phase ...R)
--   rules.adjustments(rules, cm, position, orders)   -> result, next_position   (phase W...A)
-- hooks called by rules.movement (ctx = the movement context, see build_ctx in context.lua):
--   rules.retreating_units(rules, ctx)      -> list of retreat records {i=, by=}  (standard: dislodged;
--                                            i: the unit's index in ctx.U, by: the attacker's province)
--   rules.retreat_options(rules, ctx, rec)  -> list of locations the unit may retreat to (a
--                                            variant's is sorted if it is not)
--   rules.after_movement(rules, ctx)        -> nil (may mark ctx.removed[i] = true; ctx.extra_next)
--   rules.settle_retreats(rules, ctx, recs) -> recs kept for the retreat phase, units removed at once
--   rules.resolve_retreats(rules, cm, position, orders) -> results, units, disbanded, extra
--   rules.has_retreats(rules, position)     -> does the retreat phase have anything to do
--   rules.cuts_support(rules, ctx, j, i)    -> does move j, reaching the province, cut support i
--                                            (standard: a move of another power, not from the
--                                            province the supported move goes to)
-- called by rules.adjustments and by the phase sequence (is the winter phase played?):
--   rules.build_sites(rules, cm, power, centers) -> set {PROV = true} where the power may build
--                                            (standard: its home centres; owned and empty only)
--
-- Movement: Kruijswijk's guess-and-check resolver ("The Math of Adjudication"): every move, support
-- and convoy order gets a boolean resolution; cycles are detected through the dependency list and
-- broken by the backup rule: a cycle of moves only is a circular movement (all succeed); a cycle
-- with convoys is a convoy paradox resolved by the Szykman rule (the convoyed armies involved do not
-- move, as if not convoyed; flag `no convoy`). Convoy intent (DATC 4.A.3 d, the 1982/2000
-- rulebook, preferred): an army goes by convoy if it is not adjacent; next to its destination by
-- land, if it writes VIA or a fleet of its own power orders to convoy it, and then only when the
-- fleets ordered to convoy it make a whole chain (else it moves over land: "via convoy" has a
-- meaning only where there are both a land route and a convoy route, 6.G.8); a convoyed move is
-- never a head-to-head battle. What is possible depends on the fleets on the board, whatever their
-- orders (DATC 4.E.1): a move that needs a convoy is illegal (void) when no chain of fleets at sea
-- joins its two ends (6.D.32), and so is a convoy order by a fleet on no chain that needs it
-- (6.G.7; on_chain), which then shows no intent. Result flags are worded as the reference engine
-- words them (the DATC names outcomes only; see order_flag in results.lua).

--
-- Sharing (speed; every table handed out is read-only): result entries and flag lists are memoised
-- constants; the next position's `units` and `centers` (and the result's) are the given position's
-- own tables when nothing in them changes, and its unchanged per-power lists otherwise; the
-- result's `dislodged` is the next position's list when no dislodged unit is disbanded at once.

--
-- The parts, one concern each, under rules/diplomacy/adjudicate/: shared.lua (sorted lists, flag
-- lists, centres, the phase sequence), context.lua (the movement context), resolve.lua (the
-- resolver), results.lua (outcome and flags), movement.lua (the movement phase), retreats.lua (the
-- standard retreat rule and phase), adjustments.lua (builds, disbands, civil disorder). This module
-- gathers their functions into one table, so `require("diplomacy.adjudicate")` gives all of them.

local M = {}

local EMPTY = {}

for _, name in ipairs({ "shared", "context", "resolve", "results", "movement", "retreats", "adjustments" }) do
  for k, v in pairs(require("diplomacy.adjudicate." .. name)) do
    if M[k] ~= nil and M[k] ~= v then
      error("diplomacy.adjudicate: '" .. k .. "' is defined by two parts (" .. name .. ")")
    end
    M[k] = v
  end
end

M.rules = {
  movement = M.movement,
  retreats = M.retreats,
  adjustments = M.adjustments,
  retreating_units = M.retreating_units,
  retreat_options = M.retreat_options,
  after_movement = M.after_movement,
  settle_retreats = M.settle_retreats,
  resolve_retreats = M.resolve_retreats,
  has_retreats = M.has_retreats,
  build_sites = M.build_sites,
  cuts_support = M.cuts_support,
  winner = M.winner,
}

-- What a variant may set besides the functions of M.rules: `stacks` (R-g2, several units of a
-- power in one province), `order_allowed(rules, cm, position, power, order)`, which voids an
-- order (a parsed one, diplomacy.orders) it answers `false` to (and why) in every phase, and
-- `unit_strength(rules, ctx, i, role)`, unit i's strength before its supports ("attack",
-- "defend", "hold", "prevent"; standard 1); the standard game has none of them, so its phases
-- pay nothing for them.
local FLAGS = { stacks = "boolean", order_allowed = "function", unit_strength = "function" }

-- A name a variant gives that the rules never read (a misspelt `build_site`) would leave the
-- standard rule in play without a word: refused, with the nearest name (the message, for extend
-- to raise).
local function check_override(k, v)
  local known = M.rules[k] ~= nil and "function" or FLAGS[k]
  if not known then
    local names = {}
    for name in pairs(M.rules) do names[#names + 1] = name end
    for name in pairs(FLAGS) do names[#names + 1] = name end
    table.sort(names)
    return string.format("diplomacy variant: the rules have no '%s'%s; a variant replaces one of: %s",
      tostring(k), require("lib.spelling").did_you_mean(k, names), table.concat(names, ", "))
  end
  if type(v) ~= known then
    return string.format("diplomacy variant: '%s' must be a %s, not a %s", k, known, type(v))
  end
  return nil
end

-- What a variant's `build_sites`, `retreating_units`, `retreat_options`, `unit_strength` and
-- `winner` return is checked (`settle_retreats`' in movement.lua), since a wrong shape plays
-- another game without a word (a list for a set: nobody ever builds) or fails far from its
-- cause. Only a variant's own functions are wrapped: the standard game pays nothing.
local function names_of(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = tostring(k) end
  table.sort(out)
  return table.concat(out, ", ")
end

-- a retreat record's unit, for a message: "RUSSIA A GAL" (or what the record holds)
local function rec_unit(ctx, rec)
  local u = type(rec) == "table" and math.type(rec.i) == "integer" and rec.i >= 1 and rec.i <= ctx.n
    and ctx.U[rec.i]
  return u and (u.power .. " " .. u.str) or ("record " .. tostring(type(rec) == "table" and rec.i))
end

-- the keys of `t` that are not 1..#t (a set's, or a list's stray ones), for a message; nil if none
-- (one walk: the answers checked are a few entries)
local function stray_keys(t)
  local n, count = #t, 0
  for _ in pairs(t) do count = count + 1 end
  if count == n then return nil end
  local out = {}
  for k, v in pairs(t) do
    if math.type(k) ~= "integer" or k < 1 or k > n then out[#out + 1] = tostring(k) .. " = " .. tostring(v) end
  end
  table.sort(out)
  return table.concat(out, ", ")
end

local CHECKED = {
  -- (a list of unit names for records failed deep in retreat_options, `u` a nil value)
  retreating_units = function(hook)
    local SHAPE = "it must return a list of retreat records {i = the unit's index in ctx.U, by = the " ..
      "province it was dislodged from}, as {i = 3, by = \"VIE\"}"
    return function(rules, ctx)
      local recs = hook(rules, ctx)
      if type(recs) ~= "table" then
        error(string.format("diplomacy variant: retreating_units returned a %s; %s", type(recs), SHAPE), 0)
      end
      local stray = stray_keys(recs)
      if stray then
        error(string.format("diplomacy variant: retreating_units returned a table that is no list " ..
          "({%s}); %s", stray, SHAPE), 0)
      end
      local n, prov, seen = ctx.n, ctx.cm.prov, nil
      for k = 1, #recs do
        local r = recs[k]
        local i = type(r) == "table" and r.i
        if math.type(i) ~= "integer" or i < 1 or i > n then
          error(string.format("diplomacy variant: retreating_units returned %s as record %d; %s (i from " ..
            "1 to %d)", type(r) == "table" and ("{i = " .. tostring(r.i) .. ", ...}") or
            (type(r) .. " " .. tostring(r)), k, SHAPE, n), 0)
        end
        if type(r.by) ~= "string" or not prov[r.by] then
          error(string.format("diplomacy variant: retreating_units returned %s with by = %s %s; %s " ..
            "(a province of the map)", rec_unit(ctx, r), type(r.by), tostring(r.by), SHAPE), 0)
        end
        -- (a unit listed twice would be one retreat record over the other)
        if k > 1 then
          seen = seen or { [recs[1].i] = true }
          if seen[i] then
            error(string.format("diplomacy variant: retreating_units returned %s twice; %s, each unit " ..
              "once", rec_unit(ctx, r), SHAPE), 0)
          end
          seen[i] = true
        end
      end
      return recs
    end
  end,
  -- (a set for a list read as no option: the unit was disbanded without a word)
  retreat_options = function(hook)
    local function bad(ctx, rec, what)
      error(string.format("diplomacy variant: retreat_options(%s) returned %s; it must return a list " ..
        "of locations of the map, as {\"BOH\", \"STP/NC\"}", rec_unit(ctx, rec), what), 0)
    end
    return function(rules, ctx, rec)
      local opts = hook(rules, ctx, rec)
      if type(opts) ~= "table" then bad(ctx, rec, "a " .. type(opts)) end
      local stray = stray_keys(opts)
      if stray then bad(ctx, rec, "a table that is no list ({" .. stray .. "})") end
      local loc_prov, n, ordered = ctx.cm.loc_prov, #opts, true
      for k = 1, n do
        local l = opts[k]
        if type(l) ~= "string" or not loc_prov[l] then
          local shown = {}
          for q = 1, n do shown[q] = tostring(opts[q]) end
          bad(ctx, rec, string.format("{%s}, where %s is no location of the map", table.concat(shown, ", "),
            type(l) == "string" and l or (type(l) .. " " .. tostring(l))))
        end
        if k > 1 and opts[k - 1] >= l then ordered = false end
      end
      if not ordered then
        -- (the lists the rules give are sorted: a copy, the hook's table may be its own)
        local sorted = table.move(opts, 1, n, 1, {})
        table.sort(sorted)
        for k = 2, n do
          if sorted[k] == sorted[k - 1] then bad(ctx, rec, sorted[k] .. " twice") end
        end
        opts = sorted
      end
      return opts
    end
  end,
  build_sites = function(hook)
    return function(rules, cm, power, centers)
      local sites = hook(rules, cm, power, centers)
      if type(sites) ~= "table" then
        error(string.format("diplomacy variant: build_sites(%s) returned a %s; it must return a " ..
          "set of provinces, {PAR = true}", tostring(power), type(sites)), 0)
      end
      if sites[1] ~= nil then
        local list = {}
        for k = 1, #sites do list[k] = tostring(sites[k]) end
        error(string.format("diplomacy variant: build_sites(%s) returned a list (%s); it must return " ..
          "a set of provinces, {%s = true}", tostring(power), table.concat(list, ", "), list[1]), 0)
      end
      for prov, v in pairs(sites) do
        if v ~= true or not cm.prov[prov] then
          error(string.format("diplomacy variant: build_sites(%s) returned {%s = %s}; it must return " ..
            "a set of provinces of the map, each = true", tostring(power), tostring(prov), tostring(v)), 0)
        end
      end
      return sites
    end
  end,
  -- (a forgotten `return` left every support uncut: nil read as "does not cut")
  cuts_support = function(hook)
    return function(rules, ctx, j, i)
      local cuts = hook(rules, ctx, j, i)
      if type(cuts) ~= "boolean" then
        local U = ctx.U
        error(string.format("diplomacy variant: cuts_support(%s, %s) returned %s %s; it must return " ..
          "true (the move cuts the support) or false", tostring(U[j] and U[j].str), tostring(U[i] and U[i].str),
          type(cuts), tostring(cuts)), 0)
      end
      return cuts
    end
  end,
  unit_strength = function(hook)
    return function(rules, ctx, i, role)
      local s = hook(rules, ctx, i, role)
      if s ~= nil and (type(s) ~= "number" or s < 0 or s ~= s or s == math.huge) then
        local u = ctx.U[i]
        error(string.format("diplomacy variant: unit_strength(%s %s, %s) returned %s %s; it must " ..
          "return a strength, a number 0 or more (or nil for 1)", tostring(u and u.power),
          tostring(u and u.str), tostring(role), type(s), tostring(s)), 0)
      end
      return s
    end
  end,
  winner = function(hook)
    return function(rules, cm, centers, phase)
      local w, reason = hook(rules, cm, centers, phase)
      if w ~= nil and not cm.power_info[w] then
        error(string.format("diplomacy variant: winner returned %s %s, not a power of the map (%s) " ..
          "or nil", type(w), tostring(w), names_of(cm.power_info)), 0)
      end
      if reason ~= nil and (w == nil or type(reason) ~= "string") then
        error(string.format("diplomacy variant: winner returned the reason %s %s%s; a reason is a " ..
          "string, given after a winner", type(reason), tostring(reason),
          w == nil and " with no winner" or ""), 0)
      end
      return w, reason
    end
  end,
}

-- The names each extended rules table replaced (`layer` in host.lua carries an earlier
-- variant's rule into a later one only where the later did not name it, even to set it back
-- to the standard function).
M.replaced = setmetatable({}, { __mode = "k" })

-- A copy of the standard rules with some functions replaced.
function M.extend(overrides)
  local r, replaced = {}, {}
  for k, v in pairs(M.rules) do r[k] = v end
  for k, v in pairs(overrides or EMPTY) do
    local bad = check_override(k, v)
    if bad then error(bad, 0) end
    r[k] = CHECKED[k] and v ~= M.rules[k] and CHECKED[k](v) or v
    replaced[k] = true
  end
  M.replaced[r] = replaced
  return r
end

return M
