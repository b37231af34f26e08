-- 16 MB made by one library call, dropped at once (so the memory limit never trips): charged
-- to the budget by the bytes made.
return function()
  while true do local _ = string.rep("x", 16 * 2 ^ 20) end
end
