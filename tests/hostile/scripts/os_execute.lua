return function()
  os.execute("echo pwned")
end
