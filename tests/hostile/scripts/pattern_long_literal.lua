-- A pattern of 150 000 plain letters over a subject of 300 000: no quantifier, but every start
-- compares up to the whole pattern (62 s in one call before the estimate counted its length).
return function()
  local subject = string.rep("a", 300000)
  return subject:match(string.rep("a", 150000) .. "b")
end
