-- One table.concat of 64 MiB (64 references to one 1 MiB string, made by concatenation): the
-- memory limit stops it inside the call.
return function()
  local mib = "y"
  for _ = 1, 20 do mib = mib .. mib end
  local parts = {}
  for i = 1, 64 do parts[i] = mib end
  return table.concat(parts)
end
