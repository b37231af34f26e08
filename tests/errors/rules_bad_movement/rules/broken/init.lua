hex.rules.sequence { steps = { { side = "blue", phase = "movement" } } }
hex.rules.declare("movement", {
  sides = { "blue", "red" },
  classes = { "foot" },
  terrain = { clear = 1, forest = 2, hills = 2, swamp = 3, lake = "prohibited" },
})
