-- An event whose data shares one subtable twice at every level: 40 small tables in Lua, 2^40
-- values once expanded into the host's JSON. The host must refuse it, not expand it.
return function()
  local t = { "leaf" }
  for _ = 1, 40 do t = { t, t } end
  return { { event = "Custom", name = "Bomb", data = { tree = t } } }
end
