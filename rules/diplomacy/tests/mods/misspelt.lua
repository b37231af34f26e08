-- a misspelt rule name, build_site (a test mod)
local function owned(rules, cm, power, centers)
  local sites = {}
  for _, c in ipairs(centers[power] or {}) do sites[c] = true end
  return sites
end
return require("diplomacy").variant({ build_site = owned })
