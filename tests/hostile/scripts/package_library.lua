return function()
  package.path = "/tmp/?.lua"
end
