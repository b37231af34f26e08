return function()
  error(function() return "a function as an error" end)
end
