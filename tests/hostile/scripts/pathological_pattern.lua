return function()
  local subject = string.rep("a", 100000)
  return string.find(subject, ".-.-.-.-b")
end
