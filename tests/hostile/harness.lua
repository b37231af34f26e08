-- Runs the script named by the command: `{command = "hostile", script = "endless_loop"}`.
-- Each script module returns a function; whatever it does happens inside a command handler.
hex.commands.define("hostile", {
  resolve = function(cmd, side)
    local run = require("scripts." .. cmd.script)
    return run()
  end,
})
