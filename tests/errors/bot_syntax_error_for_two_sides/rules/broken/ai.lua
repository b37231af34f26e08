-- a bot with a syntax error (tests/errors)
return function(side, legal, seed)
  local x = = 1
end
