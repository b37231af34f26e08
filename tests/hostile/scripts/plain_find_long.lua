-- A plain find does not backtrack, but compares up to the pattern's length at every start.
return function()
  local subject = string.rep("a", 1200000)
  return subject:find(string.rep("a", 600000) .. "b", 1, true)
end
