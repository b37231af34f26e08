-- retreating_units answering unit strings ("A GAL") for records {i =, by =} (a test mod)
return require("diplomacy").variant({ retreating_units = function(rules, ctx)
  local out = {}
  for i = 1, ctx.n do
    if ctx.dislodged_by[i] then out[#out + 1] = ctx.U[i].str end
  end
  return out
end })
