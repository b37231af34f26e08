return function()
  return dofile("/etc/passwd")
end
