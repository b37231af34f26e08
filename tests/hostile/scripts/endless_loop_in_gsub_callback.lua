return function()
  return (("abc"):gsub("%a", function(c)
    while true do end
  end))
end
