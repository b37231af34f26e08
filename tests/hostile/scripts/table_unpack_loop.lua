-- table.unpack of 100 000 values in a loop: charged by the values returned.
return function()
  local t = {}
  for i = 1, 100000 do t[i] = i end
  while true do local _ = select("#", table.unpack(t)) end
end
