-- the standard retreat options, in reverse order: the rules sort them (a test mod)
local base = require("diplomacy.adjudicate").rules.retreat_options
return require("diplomacy").variant({ retreat_options = function(rules, ctx, rec)
  local l, out = base(rules, ctx, rec), {}
  for k = #l, 1, -1 do out[#out + 1] = l[k] end
  return out
end })
