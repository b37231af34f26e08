-- A module that fails is read and compiled again at every require: charged by its bytes.
return function()
  while true do pcall(require, "failing_module") end
end
