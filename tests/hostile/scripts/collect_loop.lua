-- A heap of some megabytes collected again and again: one call walks every object, so each is
-- charged by the heap in use.
return function()
  local keep = {}
  for i = 1, 50000 do keep[i] = { i } end
  while true do collectgarbage() end
end
