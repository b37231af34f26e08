return function()
  return debug.getregistry()
end
