local tables = {}

function tables.check_terrain(costs)
  if costs.forest == nil then
    error("terrain table: no cost for forest")
  end
end

return tables
