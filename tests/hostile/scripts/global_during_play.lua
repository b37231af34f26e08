-- A global made during play is state outside hex.state: a save would not carry it.
return function()
  moves_seen = (moves_seen or 0) + 1
end
