-- A module that requires itself while it loads: a circular require, named where it happens.
local again = require("req")
return again
