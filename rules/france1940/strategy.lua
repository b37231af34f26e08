-- france1940/strategy: the greedy bot's (ai.lua) settings, as data a variant may change after
-- loading (`require("france1940.strategy").avoided_countries.switzerland = nil`): ai.lua reads
-- them at every decision. They are the bot's choices, not rules: the rules allow what they allow.
local strategy = {}

-- Countries the bot's units never enter by a move (the Germans did not invade Switzerland in
-- 1940; F40-16.6 makes it costly). A variant with a pro-German Switzerland removes it.
strategy.avoided_countries = { switzerland = true }

-- The worst odds (a column of combat.COLUMNS) the bot attacks at; and the worst it accepts
-- against a Dutch major city while the Netherlands stand (the German push for F40-16.3).
strategy.attack_at = "2:1"
strategy.attack_dutch_at = "1:1"

return require("lib.spelling").strict("france1940.strategy", strategy)
