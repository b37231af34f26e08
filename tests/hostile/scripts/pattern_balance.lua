-- `%b()` scans to the balancing bracket from each starting point: n^2 over a subject of n
-- unbalanced brackets, which the quantifier count did not see.
return function()
  local subject = string.rep("(", 1000000)
  return subject:find("%b()")
end
