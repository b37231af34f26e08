-- diplomacy.orders -- order parsing in the standard notation of the DATC case files.
--
--   A PAR H                hold                     -> {kind="H"}
--   A PAR - BUR [VIA]      move (VIA: by convoy)    -> {kind="M", dest="BUR", via=bool}
--   F TRI R ALB            retreat                  -> {kind="R", dest="ALB"}
--                          ("-" in a retreat phase is read as R by the adjudicator)
--   A MAR S A PAR [H]      support to hold          -> {kind="SH", ttype="A"|nil, tloc="PAR"}
--   A MAR S A PAR - BUR    support to move          -> {kind="SM", ttype, tloc, dest="BUR"}
--   F NTH C A LON - BEL    convoy (the unit type of the convoyed army may be left out:
--   F NTH C LON - BEL        6.A.7.b)               -> {kind="C", ttype="A"|nil, tloc, dest}
--   A PAR D                disband                  -> {kind="D"}
--   A PAR B / F STP/NC B   build                    -> {kind="B"}
--
-- Every parsed order also carries utype ("A"/"F"), uloc (location as written), uprov (its
-- province) and raw (the string). Anything that does not parse -- unknown province or coast,
-- wrong shape -- gives {kind="V"} (void) with whatever unit could be read (uprov may be nil);
-- parsing never raises a Lua error. Whether the order fits the board (unit present, adjacency,
-- coasts) is judged by the adjudicator, not here. Parses are memoised on the compiled map.

local M = {}

local function void(raw, utype, uloc, uprov)
  return { kind = "V", raw = raw, utype = utype, uloc = uloc, uprov = uprov }
end

local function loc_ok(cm, s)
  return s ~= nil and cm.loc_prov[s] ~= nil
end

local function parse_uncached(cm, raw)
  if type(raw) ~= "string" then return void(tostring(raw)) end
  local tok, n = {}, 0
  for w in raw:upper():gmatch("%S+") do
    n = n + 1
    tok[n] = w
  end
  local utype, uloc = tok[1], tok[2]
  if (utype ~= "A" and utype ~= "F") or not loc_ok(cm, uloc) then
    return void(raw, (utype == "A" or utype == "F") and utype or nil, uloc)
  end
  local uprov = cm.loc_prov[uloc]
  local o = { raw = raw, utype = utype, uloc = uloc, uprov = uprov }
  local verb = tok[3]
  if n == 2 or (n == 3 and verb == "H") then
    o.kind = "H"
    return o
  end
  if n == 3 and (verb == "D" or verb == "B") then
    o.kind = verb
    return o
  end
  if (verb == "-" or verb == "R") and (n == 4 or (n == 5 and tok[5] == "VIA" and verb == "-")) then
    if not loc_ok(cm, tok[4]) then return void(raw, utype, uloc, uprov) end
    o.kind = verb == "-" and "M" or "R"
    o.dest = tok[4]
    o.via = tok[5] == "VIA"
    return o
  end
  if verb == "S" or verb == "C" then
    -- target: [A|F] LOC [H | - LOC]
    local i = 4
    local ttype
    if tok[i] == "A" or tok[i] == "F" then
      ttype = tok[i]
      i = i + 1
    end
    local tloc = tok[i]
    if not loc_ok(cm, tloc) then return void(raw, utype, uloc, uprov) end
    o.ttype, o.tloc, o.tprov = ttype, tloc, cm.loc_prov[tloc]
    if verb == "S" and (n == i or (n == i + 1 and tok[i + 1] == "H")) then
      o.kind = "SH"
      return o
    end
    if n == i + 2 and tok[i + 1] == "-" and loc_ok(cm, tok[i + 2]) then
      o.dest = tok[i + 2]
      o.dprov = cm.loc_prov[o.dest]
      o.kind = verb == "S" and "SM" or "C"
      return o
    end
    return void(raw, utype, uloc, uprov)
  end
  return void(raw, utype, uloc, uprov)
end

-- kc: the kind as a small integer for the adjudicator's branches (H 0, M 1, SH 2, SM 3, C 4,
-- any other kind 5)
local KC = { H = 0, M = 1, SH = 2, SM = 3, C = 4 }

-- Parse one order string (memoised on the compiled map; the returned table must not be mutated).
-- The memo is emptied when it holds MEMO_MAX strings, so that any input keeps it bounded.
local MEMO_MAX = 8192
M.MEMO_MAX = MEMO_MAX
function M.parse(cm, raw)
  local cache = cm.order_cache
  local o = cache[raw]
  if o then return o end
  o = parse_uncached(cm, raw)
  o.kc = KC[o.kind] or 5
  if type(raw) == "string" then
    local n = (cm.order_cache_n or 0) + 1
    if n > MEMO_MAX then
      cache = {}
      cm.order_cache = cache
      n = 1
    end
    cm.order_cache_n = n
    cache[raw] = o
  end
  return o
end

return M
