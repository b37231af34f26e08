-- A table of a million elements built by doubling with table.move, then moved again and again:
-- each call moves a million elements in C (charged one unit an element).
return function()
  local t = { 1 }
  for _ = 1, 20 do table.move(t, 1, #t, #t + 1) end
  while true do table.move(t, 1, #t, 1, {}) end
end
