-- Printing a 10 MiB string thousands of times: the host keeps its log lines short.
return function()
  local mib = "x"
  for _ = 1, 20 do mib = mib .. mib end
  local s = mib .. mib .. mib .. mib .. mib .. mib .. mib .. mib .. mib .. mib
  for i = 1, 9000 do print(s) end
  while true do end
end
