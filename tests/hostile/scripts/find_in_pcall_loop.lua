-- A plain find over 4 MB in a loop, under pcall: the charge spends the budget and pcall cannot
-- swallow it.
return function()
  local s = string.rep("a", 4 * 2 ^ 20)
  while true do pcall(string.find, s, "b", 1, true) end
end
