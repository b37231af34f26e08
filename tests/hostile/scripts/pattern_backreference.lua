-- Back-references compare up to n bytes at every step of the search (24 s in one call before the
-- guard counted them).
return function()
  local subject = string.rep("a", 31000)
  return subject:find("(.-)%1%1b")
end
