-- Two strings of 1.5 MB alike but for the last byte: each `==` is one VM instruction that
-- compares every byte (the budget counts it as one instruction; the wall-clock backstop stops it).
return function()
  local a = string.rep("x", 1536 * 1024) .. "a"
  local b = string.rep("x", 1536 * 1024) .. "b"
  local same = 0
  while true do if a == b then same = same + 1 end end
end
