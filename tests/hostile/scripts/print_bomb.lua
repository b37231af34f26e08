-- Printing a 10 MiB string thousands of times: the host keeps its log lines short.
return function()
  local s = string.rep("x", 10 * 1024 * 1024)
  for i = 1, 9000 do print(s) end
  while true do end
end
