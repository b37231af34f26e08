return function()
  local chunk = "\27Lua\84\0\25\147\13\10\26\10"
  local f = assert(load(chunk, "payload", "b"))
  return f()
end
