-- A number to repeat is read as its string: charged by the bytes it will make, as a string is.
return function()
  return string.rep(1234567, 100000000)
end
