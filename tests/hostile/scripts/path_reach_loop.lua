-- hex.path.reach in a loop: each call is one VM instruction but a whole search on the host,
-- charged to the budget by the hexes it settles.
return function()
  while true do local _ = hex.path.reach("b1") end
end
