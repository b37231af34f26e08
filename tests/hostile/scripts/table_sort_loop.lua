-- table.sort of an already sorted 100 000-element table in a loop: charged n log2 n.
return function()
  local t = {}
  for i = 1, 100000 do t[i] = i end
  while true do table.sort(t) end
end
