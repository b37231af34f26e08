-- coroutine.close runs a suspended coroutine's pending __close handlers protected: a budget
-- error raised there must not come back as a mere return value the script goes on past.
return function()
  local co = coroutine.create(function()
    local guard <close> = setmetatable({}, { __close = function() while true do end end })
    coroutine.yield()
  end)
  coroutine.resume(co)
  local ok, err = coroutine.close(co)
  return { hex.events.emit("AfterBudget", { ok = ok, err = tostring(err) }) }
end
