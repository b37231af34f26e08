-- An error message whose later lines look like the host's own output.
return function()
  error("first\nerror: rules/demo/init.lua:3: FORGED second error\n1 error(s) in scenarios/demo")
end
