-- diplomacy.adjudicate.adjustments -- the winter adjustment phase: builds in owned, empty home
-- centres (rules.build_sites), disbands, and civil disorder (DATC 6.J) for a power that orders too few.
local map = require("diplomacy.map")
local orders_mod = require("diplomacy.orders")
local shared = require("diplomacy.adjudicate.shared")
local results_mod = require("diplomacy.adjudicate.results")

local M = {}

local sort = table.sort
local EMPTY = shared.EMPTY
local count_centers, powers_of, sorted_centers = shared.count_centers, shared.powers_of, shared.sorted_centers
local NOFLAGS = results_mod.NOFLAGS

-- civil-disorder distance: fewest moves from the unit to one of the power's home centres, owned
-- or not (DATC 6.J.3-6.J.7 measure to the home supply centres). Armies count any adjacency (land
-- or sea: as if convoyed, 6.J.10, 6.J.11: a sea area adds one); fleets count fleet moves only,
-- to either coast (6.J.5, 6.J.6, 6.J.9).
local function cd_distance(cm, power, u)
  local targets = {}
  for _, h in ipairs(cm.home[power] or EMPTY) do targets[h] = true end
  if targets[u.prov] then return 0 end
  -- (breadth first: an army over the provinces' borders, a fleet over its moves between
  -- locations, coasts included)
  local army = u.type == "A"
  local start = army and u.prov or u.loc
  local next_of, prov_of = army and cm.border or cm.fleet_adj, cm.loc_prov
  local seen, frontier, dist = { [start] = true }, { start }, 0
  while #frontier > 0 do
    dist = dist + 1
    local nxt = {}
    for _, node in ipairs(frontier) do
      for q in pairs(next_of[node] or EMPTY) do
        if not seen[q] then
          if targets[army and q or prov_of[q]] then return dist end
          seen[q] = true
          nxt[#nxt + 1] = q
        end
      end
    end
    frontier = nxt
  end
  return 1000
end
M.cd_distance = cd_distance

function M.adjustments(rules, cm, position, orders)
  orders = orders or EMPTY
  local allowed = rules.order_allowed -- (a variant's: nil in the standard game)
  local units_in = position.units or EMPTY
  local centers = sorted_centers(position.centers)
  local occupied = {}
  local units = {}
  for p, l in pairs(units_in) do
    local c = {}
    for k = 1, #l do
      c[k] = l[k]
      local u = map.parse_unit(cm, l[k])
      if u then occupied[u.prov] = true end
    end
    units[p] = c
  end
  local entries = {}
  local disbanded = {}
  local all = {}
  for p in pairs(units_in) do all[p] = true end
  for p in pairs(orders) do all[p] = true end
  for p in pairs(centers) do all[p] = true end
  local seq = 0
  for _, p in ipairs(powers_of(cm, all)) do
    local mine = units[p] or {}
    units[p] = mine
    local nu, nc = #mine, count_centers(centers, p)
    local owned = {}
    for _, c in ipairs(centers[p] or EMPTY) do owned[c] = true end
    local builds = nc > nu and nc - nu or 0
    local sites = builds > 0 and rules.build_sites(rules, cm, p, centers) or EMPTY
    local disbands = nu > nc and nu - nc or 0
    local list = {}
    entries[p] = list
    local removed = {}
    for _, raw in ipairs(orders[p] or EMPTY) do
      seq = seq + 1
      local o = orders_mod.parse(cm, raw)
      local ok = false
      local ustr = (o.utype and o.uloc) and (o.utype .. " " .. o.uloc) or tostring(raw)
      if allowed and o.kind ~= "V" and allowed(rules, cm, position, p, o) == false then
        -- (forbidden by the variant: void)
      elseif o.kind == "B" and builds > 0 then
        local pr = cm.prov[o.uprov]
        local fits
        if o.utype == "A" then
          fits = pr.type == "land" or pr.type == "coast"
          if fits and o.uloc ~= o.uprov then ustr = "A " .. o.uprov end
        else
          fits = pr.type == "coast" and ((pr.split and o.uloc ~= o.uprov) or (not pr.split and o.uloc == o.uprov))
        end
        if fits and sites[o.uprov] and owned[o.uprov] and not occupied[o.uprov] then
          ok = true
          builds = builds - 1
          occupied[o.uprov] = true
          mine[#mine + 1] = ustr
        end
      elseif o.kind == "D" and disbands > 0 then
        -- (of the units of that type in the province, the one on the location the order names,
        -- else the first: R-g2's stacks, F SPA/SC beside F SPA/NC)
        local pick
        for k = 1, #mine do
          local u = map.parse_unit(cm, mine[k])
          if u and not removed[k] and u.type == o.utype and u.prov == o.uprov then
            if u.loc == o.uloc then pick = k; break end
            pick = pick or k
          end
        end
        if pick then
          removed[pick] = true
          ustr = mine[pick]
          ok = true
          disbands = disbands - 1
          disbanded[#disbanded + 1] = mine[pick]
        end
      end
      list[#list + 1] = { power = p, order = tostring(raw), unit = ustr, flags = ok and {} or { "void" }, seq = seq }
    end
    -- (one order written twice for a unit: the copies cannot be told apart, so the void one is
    -- listed first, as the reference engine lists it: "void", "ok" in DATC 6.I.7 and 6.J.2)
    local groups = nil
    for k = 1, #list do
      local e = list[k]
      local key = e.unit .. "\0" .. e.order
      groups = groups or {}
      local g = groups[key]
      if g then g[#g + 1] = e else groups[key] = { e } end
    end
    for _, g in pairs(groups or EMPTY) do
      if #g > 1 then
        local seqs = {}
        for k = 1, #g do seqs[k] = g[k].seq end
        sort(g, function(a, b)
          local va, vb = #a.flags > 0, #b.flags > 0
          if va ~= vb then return va end
          return a.seq < b.seq
        end)
        for k = 1, #g do g[k].seq = seqs[k] end
      end
    end
    if disbands > 0 then
      -- civil disorder: furthest from home first; fleets before armies; then by province
      local cand = {}
      for k = 1, #mine do
        if not removed[k] then
          local u = map.parse_unit(cm, mine[k])
          if u then
            cand[#cand + 1] = { k = k, d = cd_distance(cm, p, u), f = u.type == "F", prov = u.prov, str = mine[k] }
          end
        end
      end
      sort(cand, function(a, b)
        if a.d ~= b.d then return a.d > b.d end
        if a.f ~= b.f then return a.f end
        if a.prov ~= b.prov then return a.prov < b.prov end
        return a.str < b.str
      end)
      for c = 1, disbands do
        local x = cand[c]
        if not x then break end
        removed[x.k] = true
        disbanded[#disbanded + 1] = x.str
        seq = seq + 1
        -- (a disband carried out, as the reference engine reports it: no flag, DATC 6.J.2-6.J.11)
        list[#list + 1] = { power = p, order = x.str .. " D", unit = x.str, flags = NOFLAGS, seq = seq }
      end
    end
    if next(removed) then
      local keep = {}
      for k = 1, #mine do
        if not removed[k] then keep[#keep + 1] = mine[k] end
      end
      mine = keep
      units[p] = mine
    end
    sort(mine)
    if #mine == 0 and not units_in[p] then units[p] = nil end
  end
  local _, y = map.split_phase(position.phase)
  return shared.close_phase(rules, cm, position, entries, units, disbanded, "S" .. (y + 1) .. "M", centers)
end

return M
