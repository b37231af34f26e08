-- diplomacy.order_check -- whether one order would be void, and why, for a host that answers
-- a player when the order is given (the adjudicator only says `void` at the end of the phase).
--
--   check(game, board, position, power, text) -> { order, unit, void, reason }
--
-- The verdict is the adjudicator's own: the order is adjudicated on the position as the
-- power's only order of the phase, with the unit it convoys (if any) ordered to match it, and
-- `void` is whether its result carries the `void` flag. A support to move is judged as the
-- adjudicator judges the order itself (a unit of the power there, a unit to support, the
-- supporter reaching the province; map.reaches_prov): at the end of the phase it may still be
-- flagged `void` for what the other orders do (the supported unit ordered otherwise, a support
-- against the power's own unit that stays, 6.D.10-6.D.14; a convoyed move no fleet carries),
-- which no check can know beforehand. `reason` (when void) names the first thing that is wrong,
-- found by reading the order against the position; where nothing more precise is found it says
-- what kind of order cannot be carried out.
local map = require("diplomacy.map")
local orders_mod = require("diplomacy.orders")
local context = require("diplomacy.adjudicate.context")
local retreats = require("diplomacy.adjudicate.retreats")
local spelling = require("lib.spelling")

local M = {}

local KINDS = {
  M = { H = true, M = true, SH = true, SM = true, C = true },
  R = { R = true, M = true, D = true },
  A = { B = true, D = true },
}
local PHASE_WORD = { M = "a movement", R = "a retreat", A = "an adjustment" }
local ORDER_PHASE = { H = "M", M = "M", SH = "M", SM = "M", C = "M", R = "R", B = "A" }
local TYPE_WORD = { A = "army", F = "fleet" }
local COAST_WORD = { NC = "north", SC = "south", EC = "east", WC = "west" }

-- The units of `power` in `position` that this phase orders: unit strings ("A PAR", "F STP/SC").
local function units_of(position, power, kind)
  local out = {}
  if kind == "R" then
    for _, d in ipairs(position.dislodged or {}) do
      if d.power == power then out[#out + 1] = d.unit end
    end
  else
    for _, u in ipairs((position.units or {})[power] or {}) do out[#out + 1] = u end
  end
  return out
end

-- Whether any power has a unit in province `prov` (of type `t`, if given).
local function unit_in(cm, position, prov, t)
  for _, list in pairs(position.units or {}) do
    for _, u in ipairs(list) do
      local pu = map.parse_unit(cm, u)
      if pu and pu.prov == prov and (t == nil or pu.type == t) then return true end
    end
  end
  return false
end

-- The words of the notation that are no location (and orders.SYNONYMS, the words read as them).
local KEYWORDS = { A = true, F = true, H = true, S = true, C = true, B = true, D = true, R = true,
  ["-"] = true, VIA = true }
local SYNONYMS = orders_mod.SYNONYMS
local NOTATION = "not an order in the standard notation (unit, location, order: A XXX - YYY, F XXX S A YYY H, A XXX B, ...)"

-- The dashes a player may write that the notation reads only as a word of their own ("->",
-- "=>", en dash, em dash, arrow), each as "-", for the hint that spaces a glued one.
local DASHES = { "%->", "=>", "\u{2013}", "\u{2014}", "\u{2192}" }

-- `up` with every dash, and the spaces around it, written " - " ("PAR->BUR" -> "PAR - BUR").
local function spaced_dashes(up)
  for _, d in ipairs(DASHES) do up = up:gsub(d, "-") end
  return (up:gsub("%s*%-+>?%s*", " - "))
end

-- Whether word `w` holds a dash (any of the ways of writing one).
local function has_dash(w)
  return w:find("-", 1, true) ~= nil or w:find("=>", 1, true) ~= nil or w:find("\u{2013}", 1, true) ~= nil
    or w:find("\u{2014}", 1, true) ~= nil or w:find("\u{2192}", 1, true) ~= nil
end

-- The province whose English name (the board's `name`) the order writes where word `w` stands:
-- its name, its abbreviation; or nil. A one-word name is the word ("LIVERPOOL"); a name of
-- several words is found when `w` is its first and the order goes on with the rest ("NORTH" in
-- "... - NORTH SEA"). Names are hints only: the order stays void, as the notation reads
-- abbreviations (and the map's aliases) alone. (`up`: the order, upper case, single spaces)
local function named(cm, up, w)
  local abbrs = {}
  for abbr in pairs(cm.prov) do abbrs[#abbrs + 1] = abbr end
  table.sort(abbrs)
  local padded = " " .. up .. " "
  for _, abbr in ipairs(abbrs) do
    local name = cm.prov[abbr].name
    local full = type(name) == "string" and name:upper() or nil
    if full and full ~= abbr then
      if full == w then return name, abbr end
      if full:sub(1, #w + 1) == w .. " " and padded:find(" " .. full .. " ", 1, true) then return name, abbr end
    end
  end
  return nil
end

-- The order as the parser reads its words (orders.read_words), one space between them (a dash
-- after a dash dropped: "LVP MOVES TO EDI", which has no unit type for the parser to read the
-- two words as one dash by, is "LVP - EDI").
local function as_read(cm, raw)
  local out = {}
  for _, w in ipairs(orders_mod.read_words(cm, tostring(raw))) do
    if w ~= "-" or out[#out] ~= "-" then out[#out + 1] = w end
  end
  return table.concat(out, " ")
end

-- Why an order that names no unit type does not parse, where its words tell: WAIVE, a build or
-- a disband without the unit type (`BUILD SEV`); nil otherwise.
local function untyped(cm, raw, first)
  if first == "WAIVE" or first == "WAIVES" then
    return "WAIVE is no order of the notation: a build is waived by giving no order for it"
  end
  local w = orders_mod.read_words(cm, tostring(raw))
  if #w == 2 and (w[1] == "B" or w[1] == "D") and cm.loc_prov[cm.canon[w[2]] or w[2]] then
    local what = w[1] == "B" and "a build" or "a disband"
    return what .. " names its unit type: A " .. w[2] .. " " .. w[1] .. " or F " .. w[2] .. " " .. w[1]
  end
  return nil
end

-- Why an order that reads as a support or a convoy with VIA does not parse: the hint, or nil.
local function via_in_target(cm, raw)
  local w = orders_mod.read_words(cm, tostring(raw))
  if #w < 6 or w[#w] ~= "VIA" or (w[3] ~= "S" and w[3] ~= "C") then return nil end
  local without = table.concat(w, " ", 1, #w - 1)
  local o = orders_mod.parse(cm, without)
  if o.kind == "SM" then return "a support names the move it supports without VIA (" .. without .. ")" end
  if o.kind == "C" then return "a convoy names the move it carries without VIA (" .. without .. ")" end
  return nil
end

-- Why an order does not parse, as near as the words tell: an order that starts with a unit
-- type (A, F) and holds a province's English name, a move written without spaces around its
-- dash, or a word that is no location of the map, is told so; so is an order that starts with
-- its location (`LVP - EDI`: the unit type first), WAIVE, a build or disband without the unit
-- type, and a support or convoy that writes VIA; anything else gets the notation. (one trailing
-- `.`, `,` or `;` is dropped, as the parser drops it; a coast in parentheses, `STP (NC)`, is
-- read as `STP/NC`, as the parser reads it)
local function unparsed(cm, raw)
  local up = tostring(raw):upper()
  local stop = up:match("^(.-)[.,;]%s*$")
  if stop then up = stop end
  local words = {}
  for w in up:gmatch("%S+") do
    local loc = w:find("(", 1, true) and orders_mod.paren_coast(w, words[#words])
    if not loc then
      words[#words + 1] = w
    elseif w:byte(1) == 40 then
      words[#words] = loc
    else
      words[#words + 1] = loc
    end
  end
  local first = words[1]
  local at_loc = first ~= nil and SYNONYMS[first] == nil and cm.loc_prov[cm.canon[first] or first] ~= nil
  if first ~= "A" and first ~= "F" and SYNONYMS[first] ~= "A" and SYNONYMS[first] ~= "F" and not at_loc then
    return untyped(cm, raw, first) or NOTATION
  end
  local single = table.concat(words, " ")
  for k, w in ipairs(words) do
    -- (BY before CONVOY is read with it, as VIA: orders.players_words)
    local by_convoy = w == "BY" and SYNONYMS[words[k + 1]] == "C" and words[k + 1] ~= "C"
    if not KEYWORDS[w] and not SYNONYMS[w] and not cm.loc_prov[w] and not cm.canon[w] and not by_convoy then
      local name, abbr = named(cm, single, w)
      if name then
        return "'" .. w .. "' is no province or coast of the map (" .. name .. " is " .. abbr .. ")"
      end
      if has_dash(w) then
        local rewritten = spaced_dashes(tostring(raw):upper())
        if w:find("^[%-=>]+$") then
          return "write a move's dash as - (" .. rewritten .. ")"
        end
        return "write a move with spaces around its dash (" .. rewritten .. ")"
      end
      -- (a province the map has, with a coast it has not: its coasts)
      local prov = w:match("^([^/]+)/")
      prov = prov and (cm.canon[prov] or prov)
      local p = prov and cm.prov[prov]
      if p then
        local coasts = p.coasts or {}
        if #coasts == 0 then return "'" .. w .. "': " .. prov .. " has no split coasts" end
        return "'" .. w .. "': " .. prov .. "'s coasts are " .. table.concat(coasts, ", ")
      end
      -- (a three-letter word one edit from a province's abbreviation, a swap of two letters
      -- counting as one: `BLE` is BEL; two edits would name a province for nearly any word)
      local abbrs = {}
      for abbr in pairs(cm.prov) do abbrs[#abbrs + 1] = abbr end
      table.sort(abbrs)
      local near = #w == 3 and spelling.nearest(w, abbrs, 1)
      return "'" .. w .. "' is no province or coast of the map" .. (near and (" (did you mean " .. near .. "?)") or "")
    end
  end
  if at_loc then
    local order = as_read(cm, raw)
    return "an order names its unit type first: A " .. order .. " or F " .. order
  end
  return via_in_target(cm, raw) or NOTATION
end

-- Why a void order is void: the first thing found wrong.
local function reason(game, board, cm, position, power, o, kind)
  if o.uprov == nil or o.utype == nil then return unparsed(cm, o.raw) end
  local where = o.uprov
  if o.kind ~= "V" and not KINDS[kind][o.kind] then
    local wanted = o.kind == "D" and "a retreat or an adjustment" or PHASE_WORD[ORDER_PHASE[o.kind]]
    return "this is " .. PHASE_WORD[kind] .. " phase (" .. position.phase .. "), and the order is one of "
      .. wanted .. " phase"
  end
  if o.kind == "B" then
    local units = #((position.units or {})[power] or {})
    local centers = #((position.centers or {})[power] or {})
    if centers <= units then return power .. " has no build due (" .. centers .. " centres, " .. units .. " units)" end
    local home = false
    for _, h in ipairs(game.build_sites(board, position, power)) do
      if h == where then home = true end
    end
    local owned = false
    for _, c in ipairs((position.centers or {})[power] or {}) do
      if c == where then owned = true end
    end
    if not home then
      -- (a variant's build sites are its own: "not a home centre" was said of a centre the
      -- power merely did not hold)
      if game.rules.build_sites ~= require("diplomacy.adjudicate").rules.build_sites then
        if not cm.prov[where].sc then return where .. " is not a supply centre" end
        if not owned then return power .. " does not hold " .. where end
        if unit_in(cm, position, where) then return where .. " is occupied" end
        return where .. " is not a place " .. power .. " may build in under these rules"
      end
      return where .. " is not a home supply centre of " .. power
    end
    if not owned then return power .. " does not hold " .. where end
    -- (inland before occupied: a fleet is never built there, whoever stands in it)
    if o.utype == "F" and cm.prov[where].type ~= "coast" then return "a fleet cannot be built inland, in " .. where end
    if unit_in(cm, position, where) then return where .. " is occupied" end
    if o.utype == "F" and o.uloc == where and #(cm.prov[where].coasts or {}) > 0 then
      local locs = {}
      for _, c in ipairs(cm.prov[where].coasts) do locs[#locs + 1] = where .. "/" .. c end
      return "a fleet built in " .. where .. " needs its coast (" .. table.concat(locs, ", ") .. ")"
    end
    return "the build cannot be made (all builds due are ordered already?)"
  end
  -- (of a variant's stack, the unit on the location the order names, as the adjudicator
  -- reads it: F SPA/NC beside F SPA/SC)
  local mine = nil
  for _, u in ipairs(units_of(position, power, kind)) do
    local pu = map.parse_unit(cm, u)
    if pu and pu.prov == where and pu.type == o.utype and (mine == nil or pu.loc == o.uloc) then mine = pu end
  end
  if not mine then
    local what = kind == "R" and "dislodged " or ""
    return power .. " has no " .. what .. TYPE_WORD[o.utype] .. " in " .. where
  end
  if o.kind == "V" then return unparsed(cm, o.raw) end
  -- (a fleet on a coast may be named by its province alone, "F STP - BOT", as the adjudicator
  -- reads it: only another coast named is wrong)
  if mine.loc ~= o.uloc and o.uloc ~= mine.prov then
    return "the unit stands on " .. mine.loc .. ", not " .. o.uloc
  end
  if kind == "R" then
    if o.kind == "D" then return "the disband cannot be made" end
    for _, d in ipairs(position.dislodged or {}) do
      if d.power == power and d.unit == mine.str then
        -- (a fleet sent to a split-coast province whose coasts are among its retreats: the coast
        -- is what is missing)
        local dprov = o.dest and cm.loc_prov[o.dest]
        if o.utype == "F" and dprov == o.dest and #(cm.prov[dprov].coasts or {}) > 0 then
          local open = {}
          for _, r in ipairs(d.retreats or {}) do
            if cm.loc_prov[r] == dprov and r ~= dprov then open[#open + 1] = r end
          end
          if #open > 0 then
            return "a fleet retreating to " .. dprov .. " names the coast (" .. table.concat(open, ", ") .. ")"
          end
        end
        return (o.dest or "?") .. " is not among " .. mine.str .. "'s retreats (" .. table.concat(d.retreats or {}, ", ") .. ")"
      end
    end
    return "the retreat cannot be made"
  end
  if kind == "A" then
    local units = #((position.units or {})[power] or {})
    local centers = #((position.centers or {})[power] or {})
    if units <= centers then return power .. " has no disband due" end
    return "the disband cannot be made"
  end
  if o.kind == "M" then
    -- (VIA, the notation's convoy, is no order for a fleet: void whatever its destination)
    if o.via and o.utype == "F" then
      return "a fleet is not convoyed: write F " .. o.uloc .. " - " .. o.dest .. " without VIA"
    end
    local dprov = cm.loc_prov[o.dest]
    local coasts = dprov and cm.prov[dprov] and cm.prov[dprov].coasts or {}
    -- (a split-coast province the fleet reaches by more than one coast needs the coast named,
    -- 6.B.1; by one, it is read, 6.B.2; by none, it is out of reach)
    local into = o.utype == "F" and dprov and (cm.fleet_into[mine.loc] or {})[dprov] or {}
    if #coasts > 0 and o.dest == dprov and #into > 1 then
      return "a fleet moving to " .. dprov .. " names the coast (" .. table.concat(into, ", ") .. ")"
    end
    if o.utype == "F" then
      -- (from the other coast of its province it could: say which coast it is on)
      local coast = mine.loc ~= mine.prov and mine.loc:sub(#mine.prov + 2)
      for _, c in ipairs(coast and dprov and cm.prov[mine.prov].coasts or {}) do
        local other = mine.prov .. "/" .. c
        if c ~= coast and #((cm.fleet_into[other] or {})[dprov] or {}) > 0 then
          return mine.str .. " cannot reach " .. o.dest .. " (it stands on the " .. (COAST_WORD[coast] or coast)
            .. " coast; a fleet reaches " .. o.dest .. " from " .. other .. ")"
        end
      end
      return mine.str .. " cannot reach " .. o.dest .. " (not adjacent for a fleet)"
    end
    if o.via then
      return "no chain of fleets at sea could convoy " .. mine.str .. " to " .. o.dest .. " (VIA asks for a convoy)"
    end
    return mine.str .. " cannot reach " .. o.dest .. " (not adjacent for an army, and no convoy could carry it there)"
  end
  if o.kind == "C" then
    if o.utype ~= "F" or cm.prov[where].type ~= "sea" then return "only a fleet at sea convoys" end
    if not unit_in(cm, position, o.tprov, "A") then return "no army in " .. o.tprov .. " to convoy" end
    -- (the adjudicator's test, 6.G.7: the fleets at sea on the board, whatever their orders, and
    -- the chains among them that need each of their fleets)
    local dprov = o.dprov or cm.loc_prov[o.dest]
    local U, fleets, me = {}, {}, nil
    for _, list in pairs(position.units or {}) do
      for _, u in ipairs(list) do
        local pu = map.parse_unit(cm, u)
        if pu and pu.type == "F" and cm.prov[pu.prov].type == "sea" then
          U[#U + 1] = pu
          fleets[#fleets + 1] = #U
          if pu.prov == where then me = #U end
        end
      end
    end
    -- (an army goes to land only: its convoy to a sea region was said to need no fleet, naming
    -- another as the carrier)
    if dprov and cm.prov[dprov] and cm.prov[dprov].type == "sea" then
      return "an army is convoyed to land, not to a sea region (" .. dprov .. ")"
    end
    if dprov and me then
      if not context.chain_exists(cm, U, fleets, o.tprov, dprov) then
        return "no chain of fleets at sea joins " .. o.tprov .. " to " .. dprov
      end
      local carriers = {}
      -- (a fleet on some chain is void for another reason: none given here)
      local needed = context.on_chain(cm, U, fleets, me, o.tprov, dprov)
      for _, f in ipairs(needed and {} or fleets) do
        if f ~= me and context.on_chain(cm, U, fleets, f, o.tprov, dprov) then carriers[#carriers + 1] = U[f].str end
      end
      if #carriers > 0 then
        table.sort(carriers)
        return mine.str .. " is needed on no chain of fleets from " .. o.tprov .. " to " .. dprov .. " ("
          .. table.concat(carriers, ", ") .. " can carry it without " .. mine.str .. ")"
      end
    end
    return "the convoy cannot be made"
  end
  -- supports
  if not unit_in(cm, position, o.tprov, o.ttype) then
    return "no " .. (o.ttype and TYPE_WORD[o.ttype] or "unit") .. " in " .. o.tprov .. " to support"
  end
  local target = o.kind == "SH" and o.tprov or o.dprov
  if o.tprov == where then return "a unit cannot support itself" end
  if target == where then return mine.str .. " cannot support a move into its own province" end
  return mine.str .. " cannot reach " .. target .. ", where the support is given"
end

-- Whether `power` has the unit order `o` names (its type, in its province) among the units this
-- phase orders.
local function has_unit(cm, position, power, kind, o)
  for _, u in ipairs(units_of(position, power, kind)) do
    local pu = map.parse_unit(cm, u)
    if pu and pu.prov == o.uprov and pu.type == o.utype then return true end
  end
  return false
end

-- The order that makes the army `o` convoys do what `o` says: power, text; or nil.
local function matching_order(cm, position, o)
  if o.kind ~= "C" then return nil end
  for p, list in pairs(position.units or {}) do
    for _, u in ipairs(list) do
      local pu = map.parse_unit(cm, u)
      if pu and pu.prov == o.tprov and (o.ttype == nil or pu.type == o.ttype) and pu.prov ~= o.uprov then
        return p, pu.str .. " - " .. o.dest .. " VIA"
      end
    end
  end
  return nil
end

function M.check(game, board, position, power, text)
  local cm = map.get(board)
  local _, _, kind = map.split_phase(position.phase)
  local o = orders_mod.parse(cm, text)
  local orders = { [power] = { text } }
  if kind == "M" then
    local owner, matching = matching_order(cm, position, o)
    if owner then
      orders[owner] = orders[owner] or {}
      table.insert(orders[owner], matching)
    end
  end
  -- (a variant's order_allowed: its reason is the one given when it forbids the order. It is
  -- asked as the adjudicator asks it: of an order given to one of the power's units, in a
  -- movement phase only of the kinds the phase has, a dash in a retreat phase read as R)
  local forbidden, why = false, nil
  local allowed = game.rules and game.rules.order_allowed
  if allowed and o.kind ~= "V" and (kind ~= "M" or o.kc < 5)
      and (o.kind == "B" or has_unit(cm, position, power, kind, o)) then
    local verdict, reason_given = allowed(game.rules, cm, position, power, orders_mod.in_phase(o, kind))
    forbidden, why = verdict == false, reason_given
  end
  local result = game.adjudicate(board, position, orders)
  local entry
  for _, r in ipairs(result.results or {}) do
    if r.power == power and r.order == text then entry = r end
  end
  local void = false
  for _, f in ipairs(entry and entry.flags or {}) do
    if f == "void" then void = true end
  end
  if void and kind == "M" and o.kind == "SM" and not forbidden then
    -- (the order itself, as build_ctx and order_facts judge it)
    for _, u in ipairs(units_of(position, power, kind)) do
      local pu = map.parse_unit(cm, u)
      if pu and pu.prov == o.uprov and pu.type == o.utype then
        void = not (o.tprov ~= o.uprov and o.dprov ~= o.uprov and unit_in(cm, position, o.tprov, o.ttype)
          and map.reaches_prov(cm, pu.type, pu.loc, o.dprov))
      end
    end
  end
  return {
    order = text,
    unit = entry and entry.unit or nil,
    void = void,
    reason = void and (forbidden and (why ~= nil and tostring(why) or "the rules of this variant forbid it")
      or reason(game, board, cm, position, power, o, kind)) or nil,
  }
end

-- Why retreat order `o` (`text`, valid alone) is void beside the power's orders `list`: other
-- orders took its unit. The adjudicator gives each dislodged unit the first order of its power
-- naming a unit of that type in that province that it can carry out (retreats.lua,
-- assign_retreat_orders: an impossible one is replaced by a later possible one), so this asks
-- that assignment which orders hold the units. nil when the order holds one, or when a later
-- order replaced it (its own reason, judged alone, says why it could not be carried out).
-- (`text` given twice: its last copy is the one judged, the void one)
local function second_retreat_order(rules, cm, position, power, o, text, list)
  if o.utype == nil or o.uprov == nil then return nil end
  local dl = {}
  for _, d in ipairs(position.dislodged or {}) do
    if d.power == power then dl[#dl + 1] = d end
  end
  -- (the units it names, as the adjudicator reads it: those on the location it names first)
  local named_list = retreats.named_units(cm, dl, power, o)
  local units = #named_list
  if units == 0 then return nil end
  local named = {}
  for _, n in ipairs(named_list) do named[n] = true end
  local at, naming = nil, 0
  for k, t in ipairs(list) do
    if t == text then at = k end
  end
  if at == nil then return nil end
  -- (an order for the other coast's fleet of a stack names none of these units)
  for k = 1, at do
    local other = type(list[k]) == "string" and orders_mod.parse(cm, list[k])
    if other and other.utype == o.utype and other.uprov == o.uprov then
      for _, n in ipairs(retreats.named_units(cm, dl, power, other)) do
        if named[n] then naming = naming + 1 break end
      end
    end
  end
  -- (numbered within the power's list: `seq` is the order's index)
  local assigned = retreats.assign_retreat_orders(cm, dl, { [power] = list }, function() return {} end, true, rules, position)
  local holders = {}
  for n, a in pairs(assigned) do
    if a.seq == at then return nil end
    if named[n] then holders[#holders + 1] = a end
  end
  table.sort(holders, function(a, b) return a.seq < b.seq end)
  local texts = {}
  for i, a in ipairs(holders) do
    if a.seq > at then return nil end
    texts[i] = tostring(a.raw)
  end
  local unit = o.utype .. " " .. o.uloc
  if units == 1 then
    local which = naming == 2 and "a second" or "a further"
    return which .. " order for " .. unit .. ": in a retreat phase the first one it can carry out counts ("
      .. texts[1] .. ")"
  end
  return "one order too many for the " .. units .. " units " .. unit .. ": in a retreat phase the first "
    .. units .. " they can carry out count (" .. table.concat(texts, ", ") .. ")"
end

-- Why an order that is not void alone is void beside `all` (power -> its order texts, the
-- phase's orders): the supported unit ordered otherwise (6.D.x: a support must match the order
-- it supports), a support against the power's own unit that stays (6.D.10-6.D.14), a build past
-- the ones due, a second order for a unit in a retreat phase. nil where none of these reads the
-- void.
function M.beside(game, board, position, power, text, all)
  local cm = map.get(board)
  local o = orders_mod.parse(cm, text)
  local _, _, kind = map.split_phase(position.phase)
  if kind == "R" then
    return second_retreat_order(game.rules, cm, position, power, o, text, type(all[power]) == "table" and all[power] or {})
  end
  if o.kind == "SH" or o.kind == "SM" then
    local given
    for p, list in pairs(all) do
      for _, t in ipairs(type(list) == "table" and list or {}) do
        local other = type(t) == "string" and orders_mod.parse(cm, t)
        if other and other.uprov == o.tprov and other.kind ~= "V" then given = { power = p, text = t, o = other } end
      end
    end
    local supported = (o.ttype and TYPE_WORD[o.ttype] or "unit") .. " in " .. o.tprov
    if o.kind == "SH" then
      if given and given.o.kind == "M" then
        return "the " .. supported .. " is ordered to move (" .. given.text .. "): a support to hold needs it to stay"
      end
      return nil
    end
    if not given then
      return "the " .. supported .. " has no order (it holds), not a move to " .. o.dprov
    end
    if given.o.kind ~= "M" or cm.loc_prov[given.o.dest] ~= o.dprov then
      return "the " .. supported .. " is ordered " .. given.text .. ", not to move to " .. o.dprov
    end
    -- (the move matches: against the power's own unit, which does not leave)
    for _, u in ipairs((position.units or {})[power] or {}) do
      local pu = map.parse_unit(cm, u)
      if pu and pu.prov == o.dprov then
        return "the move is onto " .. power .. "'s own " .. pu.str .. ", which stays: a power's support "
          .. "does not help to dislodge its own unit (DATC 6.D.10)"
      end
    end
    return nil
  end
  if o.kind == "B" then
    local due = #((position.centers or {})[power] or {}) - #((position.units or {})[power] or {})
    local builds, same = 0, 0
    for _, t in ipairs(type(all[power]) == "table" and all[power] or {}) do
      local other = type(t) == "string" and orders_mod.parse(cm, t)
      if other and other.kind == "B" then
        builds = builds + 1
        if other.uprov == o.uprov then same = same + 1 end
      end
    end
    if same > 1 then return "a second build in " .. o.uprov end
    if builds > due then
      return power .. " has " .. due .. " build" .. (due == 1 and "" or "s") .. " due and orders " .. builds
        .. ": the ones past the due are void"
    end
  end
  return nil
end

return M
