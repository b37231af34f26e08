-- A variable whose list has a hole: the bridge would keep item 1 and drop item 3 without a word.
return function()
  return {
    { event = "VarSet", key = "fine", value = { 1, 2 } },
    { event = "VarSet", key = "holes", value = { list = { [1] = "a", [3] = "c" } } },
  }
end
