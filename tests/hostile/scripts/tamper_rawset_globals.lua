-- rawset past the globals' metatable.
return function()
  rawset(_G, "ipairs", function() return function() return nil end end)
end
