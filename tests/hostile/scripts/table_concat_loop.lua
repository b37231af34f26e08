-- table.concat of a 10 000-element table (1 MB) in a loop: charged by the elements and bytes.
return function()
  local t = {}
  for i = 1, 10000 do t[i] = string.rep("y", 100) end
  while true do local _ = table.concat(t) end
end
