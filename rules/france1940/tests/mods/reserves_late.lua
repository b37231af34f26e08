-- Test variant: reserves later and fewer (the refusal texts must follow the tables).
local reserves = require("france1940.reserves")
reserves.FROM_TURN.german = 4
reserves.FROM_TURN.allied = 3
reserves.QUOTA.allied = 1
