-- string.upper of 1 MB in a loop, the results dropped: charged by the bytes made.
return function()
  local s = string.rep("a", 2 ^ 20)
  while true do local _ = s:upper() end
end
