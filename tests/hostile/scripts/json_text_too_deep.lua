-- JSON text nested 125 levels deep: a table that deep is refused at 100 levels, the text went
-- through (the JSON parser stops only at 128), and the game could then not be saved.
return function()
  return { hex.state.set("deep", hex.state.json(string.rep("[", 125) .. "1" .. string.rep("]", 125))) }
end
