-- Sixty lazy quantifiers over a 10-byte subject: the estimate once counted at most 8 of them
-- (10^9, just allowed) and the search ran until killed.
return function()
  return string.find(string.rep("a", 10), string.rep("a-", 60) .. "b")
end
