-- A rule starts a phase by itself: only the engine's sequence may.
return function()
  return { event = "PhaseStarted", turn = 7, step = 0, phase = "movement" }
end
