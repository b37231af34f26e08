local function dive(n) return 1 + dive(n + 1) end
return function()
  return dive(1)
end
