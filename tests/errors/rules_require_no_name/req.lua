-- require given no module name: the error names require.
local m = require()
return m
