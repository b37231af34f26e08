return function()
  local co = coroutine.create(function()
    local n = 0
    while true do n = n + 1 end
  end)
  return coroutine.resume(co)
end
