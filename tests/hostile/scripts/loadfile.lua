return function()
  return loadfile("/etc/passwd")
end
