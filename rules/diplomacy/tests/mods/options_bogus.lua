-- retreat_options naming a location the map lacks (a test mod)
return require("diplomacy").variant({ retreat_options = function(rules, ctx, rec) return { "XYZ", "MOS" } end })
