-- The refusals' shared metatable: with a `__gc` in it, every refusal the host made later would
-- carry a finalizer that loops with hooks off (the host hung).
return function()
  local mt = getmetatable(hex.refuse("X-1", "a refusal"))
  mt.__gc = function() while true do end end
end
