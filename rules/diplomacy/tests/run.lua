-- Dev runner (plain Lua 5.4, NOT loaded by the host): checks case files in the DATC JSON shape.
--   python3 tools/datc_to_lua.py cases FILE.json /tmp/x.lua
--   lua5.4 rules/diplomacy/tests/run.lua [--variant] [--standard-field] /tmp/x.lua ...
-- --variant: adjudicate with the Francqueville variant. --expected-standard: check the field
-- `expected_standard` (and later phases' `expected_standard`) instead of `expected`.
-- The assertion vocabulary is the DATC README's (see docs/diplomacy.md).
package.path = "rules/?.lua;rules/?/init.lua;" .. package.path
local NULL = "__null__"
local board = require("diplomacy.standard_board")
local game = require("diplomacy")
local field = "expected"
local files = {}
local verbose = false
for _, a in ipairs(arg) do
  if a == "--variant" then game = require("diplomacy.variants.francqueville")
  elseif a == "--expected-standard" then field = "expected_standard"
  elseif a == "-v" then verbose = true
  else files[#files + 1] = a end
end
local map = require("diplomacy.map")
local cm = map.get(board)

local function has(l, x) for _, y in ipairs(l or {}) do if y == x then return true end end return false end

local function find_entry(result, owner, key)
  local any
  for _, e in ipairs(result.results) do
    if e.unit == key then
      if owner and e.power == owner then return e end
      any = any or e
    end
  end
  return any
end

local function unit_matches(want, have)
  if want == have then return true end
  local wt, wl = want:match("^(%u) (.+)$")
  local ht, hl = have:match("^(%u) (.+)$")
  if wt ~= ht then return false end
  -- "F SPA" matches either coast
  if not wl:find("/") and hl:sub(1, 3) == wl and cm.prov[wl] and cm.prov[wl].split then return true end
  return false
end

local function check(exp, result, before_owner, nextpos, errs)
  if not exp then return end
  for key, flags in pairs(exp.results or {}) do
    local e = find_entry(result, before_owner[key], key)
    if not e then errs[#errs + 1] = "no result for " .. key
    else
      for _, f in ipairs(flags) do
        if f == "ok" then
          if #e.flags > 0 then errs[#errs + 1] = key .. " expected ok, got " .. table.concat(e.flags, ",") end
        elseif not has(e.flags, f) then
          errs[#errs + 1] = key .. " expected " .. f .. ", got {" .. table.concat(e.flags, ",") .. "}"
        end
      end
    end
  end
  for key, flags in pairs(exp.results_exact or {}) do
    local got = {}
    for _, e in ipairs(result.results) do
      if e.unit == key then got[#got + 1] = #e.flags == 0 and "ok" or table.concat(e.flags, "+") end
    end
    local want = {}
    for _, f in ipairs(flags) do want[#want + 1] = f end
    table.sort(got); table.sort(want)
    if table.concat(got, "|") ~= table.concat(want, "|") then
      errs[#errs + 1] = key .. " exact " .. table.concat(want, ",") .. " got " .. table.concat(got, ",")
    end
  end
  local function find_unit(key)
    for p, l in pairs(result.units) do
      for _, u in ipairs(l) do if unit_matches(key, u) then return p end end
    end
  end
  for key, who in pairs(exp.units or {}) do
    local p = find_unit(key)
    if who == NULL then
      if p then errs[#errs + 1] = key .. " should be absent, held by " .. p end
    elseif p ~= who then
      errs[#errs + 1] = key .. " should be " .. who .. ", got " .. tostring(p)
    end
  end
  for _, key in ipairs(exp.units_exist or {}) do
    if not find_unit(key) then errs[#errs + 1] = key .. " should exist" end
  end
  for key, by in pairs(exp.dislodged or {}) do
    local ok = false
    for _, d in ipairs(result.dislodged) do
      if d.unit == key and d.by == by then ok = true end
    end
    if not ok then errs[#errs + 1] = key .. " should be dislodged by " .. by end
  end
  for _, key in ipairs(exp.not_dislodged or {}) do
    for _, d in ipairs(nextpos.dislodged or {}) do
      if d.unit == key then errs[#errs + 1] = key .. " still dislodged" end
    end
  end
  for _, alts in ipairs(exp.any_of or {}) do
    local any = false
    for _, alt in ipairs(alts) do
      local e2 = {}
      check(alt, result, before_owner, nextpos, e2)
      if #e2 == 0 then any = true end
    end
    if not any then errs[#errs + 1] = "no alternative of any_of holds" end
  end
  -- extension (docs/diplomacy.md): retreat option lists, disbanded list, next phase
  for key, opts in pairs(exp.retreats or {}) do
    local found
    for _, d in ipairs(result.dislodged) do if d.unit == key then found = d end end
    if not found then errs[#errs + 1] = key .. " not retreating"
    else
      local a, b = table.concat(found.retreats, ","), table.concat(opts, ",")
      if a ~= b then errs[#errs + 1] = key .. " retreats {" .. a .. "} expected {" .. b .. "}" end
    end
  end
  for _, key in ipairs(exp.not_disbanded or {}) do
    if has(result.disbanded, key) then errs[#errs + 1] = key .. " should not be in disbanded" end
  end
  for _, key in ipairs(exp.disbanded or {}) do
    if not has(result.disbanded, key) then errs[#errs + 1] = key .. " not in disbanded" end
  end
  if exp.next_phase and exp.next_phase ~= result.next_phase then
    errs[#errs + 1] = "next_phase " .. result.next_phase .. " expected " .. exp.next_phase
  end
  if exp.centers then
    for p, l in pairs(exp.centers) do
      local got = table.concat(result.centers[p] or {}, ",")
      if got ~= table.concat(l, ",") then errs[#errs + 1] = "centers " .. p .. " " .. got end
    end
  end
end

local function owners(pos)
  local o = {}
  for p, l in pairs(pos.units or {}) do for _, u in ipairs(l) do o[u] = p end end
  for _, d in ipairs(pos.dislodged or {}) do o[d.unit] = d.power end
  return o
end

local function dump(result)
  local out = {}
  for _, e in ipairs(result.results) do
    out[#out + 1] = string.format("   %s %-22s %-10s {%s}", e.power, e.order, e.unit, table.concat(e.flags, ","))
  end
  for _, d in ipairs(result.dislodged) do
    out[#out + 1] = string.format("   dislodged %s %s by %s -> {%s}", d.power, d.unit, d.by, table.concat(d.retreats, ","))
  end
  out[#out + 1] = "   disbanded {" .. table.concat(result.disbanded, ",") .. "} next " .. result.next_phase
  return table.concat(out, "\n")
end

local total, passed = 0, 0
local per = {}
for _, f in ipairs(files) do
  local data = dofile(f)
  local sec = data.section or f
  per[sec] = per[sec] or { 0, 0 }
  for _, c in ipairs(data.cases) do
    if c[field] ~= nil or field == "expected" then
      total = total + 1
      per[sec][1] = per[sec][1] + 1
      local errs = {}
      local ok, err = pcall(function()
        local centers = c.centers
        local pos = game.new_position(board, { phase = c.phase, units = c.units, centers = centers, dislodged = c.dislodged })
        local result, nextpos = game.adjudicate(board, pos, c.orders)
        check(c[field], result, owners(pos), nextpos, errs)
        if verbose then print(c.id .. "\n" .. dump(result)) end
        for _, lp in ipairs(c.later_phases or {}) do
          local prev = nextpos
          if nextpos.phase == lp.phase then
            result, nextpos = game.adjudicate(board, nextpos, lp.orders)
            if verbose then print(dump(result)) end
            check(lp[field], result, owners(prev), nextpos, errs)
          else
            -- skipped phase: only board assertions apply
            local e = lp[field] or {}
            check({ units = e.units, units_exist = e.units_exist }, { results = {}, units = nextpos.units, dislodged = {}, disbanded = {} }, {}, nextpos, errs)
            if verbose then print("   (phase " .. lp.phase .. " skipped; now " .. nextpos.phase .. ")") end
          end
        end
      end)
      if not ok then errs[#errs + 1] = "ERROR " .. tostring(err) end
      if #errs == 0 then
        passed = passed + 1
        per[sec][2] = per[sec][2] + 1
      else
        print("FAIL " .. c.id .. " " .. (c.title or "") .. "\n  " .. table.concat(errs, "\n  "))
      end
    end
  end
end
local secs = {}
for s in pairs(per) do secs[#secs + 1] = s end
table.sort(secs)
for _, s in ipairs(secs) do print(string.format("%-10s %d/%d", s, per[s][2], per[s][1])) end
print(string.format("TOTAL %d/%d", passed, total))
os.exit(passed == total and 0 or 1)
