return function()
  return math.random(6)
end
