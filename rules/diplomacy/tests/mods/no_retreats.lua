-- No retreats: every dislodged unit is disbanded at once (a test mod)
return require("diplomacy").variant({ settle_retreats = function(rules, ctx, recs) return {}, recs end })
