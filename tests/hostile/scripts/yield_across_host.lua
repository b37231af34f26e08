return function()
  coroutine.yield("out of the host")
end
