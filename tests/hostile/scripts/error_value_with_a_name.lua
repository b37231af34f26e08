-- An error value whose metatable names it (`__name`): Lua prints it as `Foo: 0x55d0...`, an
-- address that differs from run to run.
return function()
  error(setmetatable({}, { __name = "Foo" }))
end
