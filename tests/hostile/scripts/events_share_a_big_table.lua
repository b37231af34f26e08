-- Many events that all reference one big table: the host would copy it once per event.
return function()
  local big = {}
  for i = 1, 900000 do big[i] = i end
  local events = {}
  for i = 1, 20000 do events[i] = { event = "Custom", name = "Bomb", data = { v = big } } end
  return events
end
