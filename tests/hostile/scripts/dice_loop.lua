-- Rolls far more dice than a command may have events: each roll is held by the host until the
-- call returns (3 million rolls held 2 GB before the limit was checked).
return function()
  for _ = 1, 3000000 do hex.dice.roll(6) end
  return {}
end
