-- Runs the script named by the command: `{command = "hostile", script = "endless_loop"}`.
-- Each script module returns a function; whatever it does happens inside a command handler.
hex.commands.define("hostile", {
  resolve = function(cmd, side)
    local run = require("scripts." .. cmd.script)
    return run()
  end,
})

-- A global made while the modules load (allowed then, never during play): the command
-- `loaded_global` reads it back into a variable.
harness_helper = function() return "made while loading" end
hex.commands.define("loaded_global", {
  resolve = function()
    return { { event = "VarSet", key = "helper", value = harness_helper() } }
  end,
})
