return function()
  getmetatable("").__index = function() return "pwned" end
end
