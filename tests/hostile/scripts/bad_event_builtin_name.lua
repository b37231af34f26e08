-- A custom event named like an engine event would reach UnitMoved handlers without its fields.
return function()
  return hex.events.emit("UnitMoved", { unit = "b1" })
end
