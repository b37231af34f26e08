return function()
  local f = io.open("/etc/passwd")
  return f:read("a")
end
