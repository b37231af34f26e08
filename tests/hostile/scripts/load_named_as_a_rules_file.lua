-- A chunk loaded under a rules file's name: its error must not read as that file's line.
return function()
  local f = load("local x = nil\nreturn x.y", "@rules/demo/combat.lua")
  f()
end
