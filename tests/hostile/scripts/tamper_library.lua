-- The libraries are shared by every script.
return function()
  string.format = function() return "" end
end
