-- utf8.len of 1 MB in a loop: charged by the bytes scanned.
return function()
  local s = string.rep("é", 2 ^ 19)
  while true do local _ = utf8.len(s) end
end
