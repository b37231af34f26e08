-- Many events that all reference one 10 MiB string: 50 GB if the host copied it for each.
return function()
  local s = string.rep("x", 10 * 1024 * 1024)
  local events = {}
  for i = 1, 5000 do events[i] = { event = "Custom", name = "S", data = s } end
  return events
end
