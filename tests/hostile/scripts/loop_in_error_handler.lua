return function()
  return xpcall(function() error("boom") end, function(msg) while true do end end)
end
