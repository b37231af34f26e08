-- Names a designer may misspell (a variant's override, a setup's table, a module's field): the
-- nearest known name, for a "did you mean" in the refusal.
local M = {}

-- (a name's letters as numbers: its UTF-8 characters, or its bytes when it is not UTF-8, so
-- that `é` is one letter, as in the engine's did-you-mean)
local function letters(s)
  local ok, list = pcall(function()
    local out = {}
    for _, c in utf8.codes(s) do out[#out + 1] = c end
    return out
  end)
  if ok then return list end
  local out = {}
  for i = 1, #s do out[i] = s:byte(i) end
  return out
end

-- (the number of one-letter edits between two names, two neighbouring letters swapped counting
-- as one: `sied` is one edit from `side`, as in the engine's own did-you-mean, src/spelling.rs)
local function edits(name, other)
  local a, b = letters(name), letters(other)
  local before, prev = nil, {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur, ai = { [0] = i }, a[i]
    for j = 1, #b do
      local bj = b[j]
      local d = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai == bj and 0 or 1))
      if before and j > 1 and ai == b[j - 1] and a[i - 1] == bj and ai ~= bj then
        d = math.min(d, before[j - 2] + 1)
      end
      cur[j] = d
    end
    before, prev = prev, cur
  end
  return prev[#b]
end

-- The name of `names` nearest `name` within `most` edits (default two; the first in list order
-- on a tie), or nil; a name that is no string has none.
function M.nearest(name, names, most)
  if type(name) ~= "string" then return nil end
  most = most or 2
  -- (a name more than two letters longer or shorter than a candidate is more than two edits
  -- from it: skipped before the distance, which costs the product of the lengths, so that an
  -- id of thousands of letters is refused, not stopped by the instruction budget)
  local length = utf8.len(name) or #name
  local near, near_edits
  for _, candidate in ipairs(names) do
    if math.abs((utf8.len(candidate) or #candidate) - length) <= most then
      local d = edits(name, candidate)
      if d <= most and (not near or d < near_edits) then near, near_edits = candidate, d end
    end
  end
  return near
end

-- " (did you mean 'x'?)" for the nearest name, or "".
function M.did_you_mean(name, names)
  local near = M.nearest(name, names)
  return near and (" (did you mean '" .. near .. "'?)") or ""
end

-- "unknown key 'x' (did you mean 'y'?)" for the first key of table `t` (in sorted order) that is
-- not in the list `keys`, or nil when every key is: a setup table's keys, where a misspelt one
-- would be set aside without a word.
function M.unknown_key(t, keys)
  local unknown = {}
  for key in pairs(t) do
    local known = false
    for _, k in ipairs(keys) do known = known or k == key end
    if not known then unknown[#unknown + 1] = tostring(key) end
  end
  if #unknown == 0 then return nil end
  table.sort(unknown)
  return "unknown key '" .. unknown[1] .. "'" .. M.did_you_mean(unknown[1], keys)
end

-- Makes module table `t` (named `name` in errors) refuse a new field one or two letters off a
-- field it has, or the same but for case: a variant writing `victory.score = f` for
-- `victory.scores`, or `combat.crt` for `combat.CRT`, changed nothing and was never told.
-- Fields it has are replaced as before, and a new name far from every field is added (a
-- variant's own); `rawset` adds any. Returns `t`.
function M.strict(name, t)
  return setmetatable(t, {
    __newindex = function(tbl, key, value)
      if type(key) == "string" then
        local names = {}
        for k in pairs(tbl) do
          if type(k) == "string" then names[#names + 1] = k end
        end
        table.sort(names)
        -- (a field the same but for case, whatever its length: `combat.crt` for `combat.CRT`;
        -- else one or two letters off, for names of 4 letters or more)
        local near
        for _, k in ipairs(names) do
          if not near and k:lower() == key:lower() then near = k end
        end
        if not near and #key >= 4 then near = M.nearest(key, names) end
        if near then
          error(string.format("%s has no field '%s' (did you mean '%s'?): to add a new field of "
            .. "that name, use rawset(%s, \"%s\", value)", name, key, near, name, key), 2)
        end
      end
      rawset(tbl, key, value)
    end,
  })
end

return M
