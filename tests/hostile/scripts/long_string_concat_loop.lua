-- A string of 1.5 MB joined to itself and dropped: each `..` copies 3 MB in one VM
-- instruction, which the budget counts as one (the wall-clock backstop stops it).
return function()
  local a = string.rep("x", 1536 * 1024)
  while true do local _ = a .. a end
end
