return function()
  collectgarbage("stop")
end
