-- Many events that all reference one 10 MiB string: 50 GB if the host copied it for each.
return function()
  local mib = "x"
  for _ = 1, 20 do mib = mib .. mib end
  local s = mib .. mib .. mib .. mib .. mib .. mib .. mib .. mib .. mib .. mib
  local events = {}
  for i = 1, 5000 do events[i] = { event = "Custom", name = "S", data = s } end
  return events
end
