-- `load` turns an error its reader raises into `nil, message`: a reader that loops for ever has
-- the budget's error caught at every tick, in a loop of loads.
return function()
  local function reader() local x = 0 while true do x = x + 1 end end
  while true do load(reader) end
end
