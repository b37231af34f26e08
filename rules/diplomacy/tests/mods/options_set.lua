-- retreat_options answering a set, {UKR = true}, for the list the rules read (a test mod)
local base = require("diplomacy.adjudicate").rules.retreat_options
return require("diplomacy").variant({ retreat_options = function(rules, ctx, rec)
  local set = {}
  for _, l in ipairs(base(rules, ctx, rec)) do set[l] = true end
  return set
end })
