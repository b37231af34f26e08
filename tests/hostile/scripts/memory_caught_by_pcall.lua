-- A memory bomb inside pcall: caught, the string dropped and the script went on (and could
-- measure the heap, which depends on the VM's history, by where the error fell).
return function()
  pcall(function() local s = "x" while true do s = s .. s end end)
  return { { event = "VarSet", key = "survived", value = true } }
end
