return function()
  while true do end
end
