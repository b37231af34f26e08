-- Without the global `hex` every later command of every module fails.
return function()
  hex = nil
end
