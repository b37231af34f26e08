return function()
  local t = setmetatable({}, { __index = function(t, k) while true do end end })
  return t.anything
end
