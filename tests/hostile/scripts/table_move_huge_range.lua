-- table.move over a made-up range of a trillion elements: one C loop the budget cannot see.
return function()
  table.move({}, 1, 1e12, 1, {})
end
