return function()
  error({ code = 42, text = "a table as an error" })
end
