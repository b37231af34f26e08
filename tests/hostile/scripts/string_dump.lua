return function()
  return string.dump(function() return 1 end)
end
