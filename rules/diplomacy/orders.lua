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
-- Every parsed order also carries utype ("A"/"F"), uloc (location as written, an alias read as
-- the location it names: LIV -> LVN), uprov (its province) and raw (the string). Anything that does not parse -- unknown province or coast,
-- wrong shape -- gives {kind="V"} (void) with whatever unit could be read (uprov may be nil);
-- parsing never raises a Lua error. Whether the order fits the board (unit present, adjacency,
-- coasts) is judged by the adjudicator, not here. Parses are memoised on the compiled map.
--
-- The words players write for the letters are read as the letters (SYNONYMS below: `A PAR
-- MOVES TO BUR`, `A MAR SUPPORTS A PAR -> BUR`, `F NTH CONVOYS A EDI – HOL`), one trailing
-- `.`, `,` or `;` is dropped (`A PAR - BUR.`). A location of the map is never read as such a
-- word. Read the same way, only where the notation alone reads the order as void: `VIA CONVOY`
-- and `BY CONVOY` (the DATC's case texts: `A BEL - HOL via Convoy`) as `VIA`; a coast in
-- parentheses, `STP(NC)` or `STP (NC)`, as `STP/NC`; `REMOVE` as `D`; a build or disband with
-- its verb first, `BUILD A SEV`, `DISBAND A BUR`, `REMOVE A BUR`, as `A SEV B`, `A BUR D`. A
-- dash written against its neighbours (`A PAR-BUR`) stays void: order_check tells the player to
-- space it.

local M = {}

-- kc: the kind as a small integer for the adjudicator's branches (H 0, M 1, SH 2, SM 3, C 4,
-- any other kind 5)
local KC = { H = 0, M = 1, SH = 2, SM = 3, C = 4 }

local function void(raw, utype, uloc, uprov)
  return { kind = "V", kc = 5, raw = raw, utype = utype, uloc = uloc, uprov = uprov }
end

-- The tokens of the order being parsed, a scratch list reused by every parse (parse_uncached is
-- not re-entered): a fresh list grew four times an order. A valid order has at most 7 tokens;
-- the parse stops reading at TOK_MAX + 1 (void then, as any order that long).
local TOK, TOK_MAX = {}, 8
local tok_n = 0 -- (the slots the last parse filled)

-- Every order's record is made by one constructor with all its fields (adding fields one by one
-- re-sized the table twice an order), `fx` included (false: the adjudicator's facts, set later).
-- (text far longer than any order is void unread: the host refuses it when it is given, but a
-- position from elsewhere may hold it)
local LONGEST = 100

-- The words (upper case) read as a letter of the notation: a game master's players write them
-- (`A PAR HOLDS`, `F BRE TO MAO`, `A PAR → BUR`). None is a location of the standard map, and
-- a map's own location wins over any of them. (the dashes: "-" spelt "->", "=>", the en dash
-- U+2013, the em dash U+2014 and the arrow U+2192, as UTF-8)
local DASH = "-"
local SYNONYMS = {
  HOLD = "H", HOLDS = "H",
  SUPPORT = "S", SUPPORTS = "S",
  CONVOY = "C", CONVOYS = "C",
  MOVE = DASH, MOVES = DASH, TO = DASH, ["->"] = DASH, ["=>"] = DASH,
  ["\u{2013}"] = DASH, ["\u{2014}"] = DASH, ["\u{2192}"] = DASH,
  RETREAT = "R", RETREATS = "R",
  DISBAND = "D", DISBANDS = "D", REMOVE = "D", REMOVES = "D",
  BUILD = "B", BUILDS = "B",
  ARMY = "A", FLEET = "F",
}
M.SYNONYMS = SYNONYMS

-- The last token without one trailing `.`, `,` or `;` (nil when that was all of it).
local function without_stop(w)
  local b = w:byte(-1)
  if b == 46 or b == 44 or b == 59 then
    if #w == 1 then return nil end
    return w:sub(1, -2)
  end
  return w
end

-- A coast written in parentheses, `STP(NC)` or `STP (NC)` (a trailing stop kept): the word
-- `w` as `STP/NC`; for a word that is only `(NC)`, the coast with the word before it (`prev`).
-- nil when `w` holds no such coast.
local function paren_coast(w, prev)
  local loc, coast, stop = w:match("^([^()]+)%((%a+)%)([.,;]?)$")
  if loc then return loc .. "/" .. coast .. stop end
  coast, stop = w:match("^%((%a+)%)([.,;]?)$")
  if coast and prev and not prev:find("/", 1, true) then return prev .. "/" .. coast .. stop end
  return nil
end
M.paren_coast = paren_coast

-- The words of `raw` into TOK with the words players write read as the letters (SYNONYMS, a
-- dash word after a dash or an R read with it, one trailing stop dropped): the count. Asked only
-- for an order the notation alone reads as void, so that the standard notation, nearly every
-- order, pays nothing for it (it cost a fresh phase 8-10% of its instructions when every order
-- went through it). Read here too: `VIA CONVOY` and `BY CONVOY` as `VIA`; a coast in
-- parentheses, `STP(NC)`, `STP (NC)`, as `STP/NC`; the verb first, `BUILD A SEV`, `DISBAND A
-- BUR`, `REMOVE A BUR` (or the letter, `B A SEV`), as `A SEV B`, `A BUR D`.
local function players_words(cm, raw)
  local lp = cm.loc_prov
  local tok, n = TOK, 0
  for w in raw:upper():gmatch("%S+") do
    local s = SYNONYMS[w]
    local again = false
    if s ~= nil and lp[w] == nil then
      -- (a word for the dash after a dash or a retreat is read with it: "MOVES TO", "- TO",
      -- "RETREATS TO"; "CONVOY" after "VIA" or "BY" is the VIA: "VIA CONVOY", "BY CONVOY")
      again = s == DASH and n >= 3 and (tok[n] == DASH or (n == 3 and tok[n] == "R"))
      if s == "C" and w ~= "C" and n >= 4 and (tok[n] == "VIA" or (tok[n] == "BY" and lp.BY == nil)) then
        tok[n] = "VIA"
        again = true
      end
      w = s
    elseif lp[w] == nil and w:find("(", 1, true) then
      local loc = paren_coast(w, tok[n])
      if loc then
        if w:byte(1) == 40 then n = n - 1 end -- ("(NC)": with the word before it)
        w = loc
      end
    end
    if not again then
      n = n + 1
      if n > TOK_MAX then break end
      tok[n] = w
    end
  end
  if n > 0 and n <= TOK_MAX then
    local w = without_stop(tok[n])
    if w == nil then
      tok[n] = nil
      n = n - 1
    elseif w ~= tok[n] then
      -- (a location of the map that ends so stays as written; a word for a letter is read
      -- as one, "A PAR HOLD.")
      if lp[tok[n]] == nil then
        local s = SYNONYMS[w]
        if s == "C" and w ~= "C" and lp[w] == nil and n >= 5 and (tok[n - 1] == "VIA" or (tok[n - 1] == "BY" and lp.BY == nil)) then
          -- ("VIA CONVOY.")
          tok[n] = nil
          n = n - 1
          tok[n] = "VIA"
        else
          tok[n] = (s ~= nil and lp[w] == nil) and s or w
        end
      end
    end
  end
  -- (the verb first, a build or a disband: BUILD A SEV -> A SEV B)
  local v = tok[1]
  if n == 3 and (v == "B" or v == "D") and (tok[2] == "A" or tok[2] == "F") and lp[v] == nil then
    tok[1], tok[2], tok[3] = tok[2], tok[3], v
  end
  return n
end

-- The words of `raw` as the parser reads them when the notation alone reads it as void (the
-- words players write read as the letters, and the forms above): a fresh list. For the hints of
-- order_check, not for the parse.
function M.read_words(cm, raw)
  local n = math.min(players_words(cm, raw), TOK_MAX)
  if n > tok_n then tok_n = n end -- (the next parse clears these slots)
  local out = {}
  for k = 1, n do out[k] = TOK[k] end
  return out
end

local parse_words

local function parse_uncached(cm, raw)
  if type(raw) ~= "string" then return void(tostring(raw)) end
  if #raw > LONGEST then return void(raw) end
  -- (the notation's words, read inline: a call less an order)
  local tok, n = TOK, 0
  for w in raw:upper():gmatch("%S+") do
    n = n + 1
    if n > TOK_MAX then break end
    tok[n] = w
  end
  local o = parse_words(cm, raw, n)
  if o.kind ~= "V" then return o end
  return parse_words(cm, raw, players_words(cm, raw))
end

-- The order the `n` words in TOK make (`raw`: the text as given).
parse_words = function(cm, raw, n)
  -- (every location is read through the map's aliases: "A LIV H" is an order for A LVN)
  local lp, canon = cm.loc_prov, cm.canon
  local tok = TOK
  for k = n + 1, tok_n do tok[k] = nil end
  tok_n = n < TOK_MAX and n or TOK_MAX
  local utype, uloc = tok[1], tok[2]
  if uloc then uloc = canon[uloc] or uloc end
  if (utype ~= "A" and utype ~= "F") or uloc == nil or lp[uloc] == nil then
    return void(raw, (utype == "A" or utype == "F") and utype or nil, uloc)
  end
  local uprov = lp[uloc]
  local verb = tok[3]
  local kind, dest, via, ttype, tloc, tprov, dprov
  if n == 2 or (n == 3 and verb == "H") then
    kind = "H"
  elseif n == 3 and (verb == "D" or verb == "B") then
    kind = verb
  elseif (verb == "-" or verb == "R") and (n == 4 or (n == 5 and tok[5] == "VIA" and verb == "-")) then
    dest = tok[4]
    if lp[dest] == nil then return void(raw, utype, uloc, uprov) end
    dest = canon[dest] or dest
    kind = verb == "-" and "M" or "R"
    via = tok[5] == "VIA"
  elseif verb == "S" or verb == "C" then
    -- target: [A|F] LOC [H | - LOC]
    local i = 4
    local t = tok[4]
    if t == "A" or t == "F" then
      ttype = t
      i = 5
    end
    tloc = tok[i]
    if tloc == nil or lp[tloc] == nil then return void(raw, utype, uloc, uprov) end
    tloc = canon[tloc] or tloc
    tprov = lp[tloc]
    if verb == "S" and (n == i or (n == i + 1 and tok[i + 1] == "H")) then
      kind = "SH"
    else
      dest = tok[i + 2]
      if n == i + 2 and tok[i + 1] == "-" and dest ~= nil and lp[dest] ~= nil then
        dest = canon[dest] or dest
        dprov = lp[dest]
        kind = verb == "S" and "SM" or "C"
      else
        return void(raw, utype, uloc, uprov)
      end
    end
  else
    return void(raw, utype, uloc, uprov)
  end
  return { raw = raw, utype = utype, uloc = uloc, uprov = uprov, kind = kind, kc = KC[kind] or 5,
           dest = dest, via = via, ttype = ttype, tloc = tloc, tprov = tprov, dprov = dprov, fx = false }
end

-- The order as a phase of kind `k` ("M", "R" or "A") reads it: in a retreat phase a move
-- (`F TRI - ALB`) is a retreat, kind "R" (a copy: the memoised record stays as it is). What a
-- variant's `order_allowed` is shown, so that `-` and `R` are one retreat to it.
function M.in_phase(o, k)
  if k ~= "R" or o.kind ~= "M" then return o end
  local r = {}
  for key, v in pairs(o) do r[key] = v end
  r.kind, r.kc, r.via = "R", 5, false
  return r
end

-- Parse one order string (memoised on the compiled map; the returned table must not be mutated).
-- The memo is emptied when it holds MEMO_MAX strings, so that any input keeps it bounded.
local MEMO_MAX = 8192
M.MEMO_MAX = MEMO_MAX
function M.parse(cm, raw)
  local cache = cm.order_cache
  local o = cache[raw]
  if o then return o end
  o = parse_uncached(cm, raw)
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
