-- load of 200 KB of text in a loop, the chunks never run: charged by the bytes compiled.
return function()
  local text = "local x = 1\n" .. string.rep("x = x + 1\n", 20000)
  while true do local _ = load(text) end
end
