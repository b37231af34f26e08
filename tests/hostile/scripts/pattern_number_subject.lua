-- A number subject is read as its string by the pattern functions; the guard once checked
-- string subjects only, and this search ran until killed.
return function()
  return string.find(1234567890123456789, string.rep("%d-", 40) .. "x")
end
