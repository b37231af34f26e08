return function()
  return require("../../../etc/passwd")
end
