-- A NaN inside a custom event's data would be saved as null.
return function()
  return hex.events.emit("Measured", { odds = { 3, 0 / 0 } })
end
