-- One gsub whose result (40 MiB) passes the memory limit inside the call.
return function()
  local s = "x"
  for _ = 1, 20 do s = s .. s end
  return (s:gsub("x", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"))
end
