-- %p prints a memory address.
return function()
  return string.format("%5p", {})
end
