-- The heap's size depends on what the VM did before (a refused command, a loaded save).
return function()
  return { { event = "VarSet", key = "heap", value = collectgarbage("count") } }
end
