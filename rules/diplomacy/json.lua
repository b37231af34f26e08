-- diplomacy.json -- encodes the glue's big event data (the position, the phase report) as JSON
-- text for hex.state.json: one string crosses to the host instead of a table walked value by
-- value. Host-only (diplomacy.host); the library never needs it.
--
-- The text means exactly what the host's table conversion would make of the same table: a table
-- with #t > 0 is an array of t[1..#t] (other keys ignored), an empty table is {} (an object), any
-- other table an object with string keys. encode returns nil for what it does not write (floats,
-- non-string keys, functions ...): the caller then passes the table itself.
--
-- Memos (pure functions of their key, so nothing of a game is kept between calls): the quoted
-- form of each string, and the text of tables the library shares read-only between calls (result
-- entries and flag lists, see docs/diplomacy.md), held weakly.

local M = {}

local concat, find, gsub, format, byte = table.concat, string.find, string.gsub, string.format, string.byte
local mtype = math.type

-- order text is free text: each memo is emptied when it grows past this
local MEMO_MAX = 8192

-- SAFE[s]: true when string s needs no escaping, false when it does (nil: not seen yet)
local SAFE, nsafe = {}, 0
local function is_safe(s)
  local v = SAFE[s]
  if v == nil then
    v = not find(s, '[%c"\\]')
    if nsafe >= MEMO_MAX then SAFE, nsafe = {}, 0 end
    SAFE[s] = v
    nsafe = nsafe + 1
  end
  return v
end

local function escape_char(c)
  if c == '"' then return '\\"' end
  if c == "\\" then return "\\\\" end
  return format("\\u%04x", byte(c))
end

local function quote(s)
  if is_safe(s) then return '"' .. s .. '"' end
  return '"' .. gsub(s, '[%c"\\]', escape_char) .. '"'
end
M.quote = quote

local encode

-- shared read-only tables (result entries, flag lists): their text, by identity
local SHARED = setmetatable({}, { __mode = "k" })

-- an array of strings none of which needs escaping, in one concat (no per-element encode); nil
-- when an element is not a string or some text needs escaping
local function plain_string_array(t, n)
  for k = 1, n do
    local x = t[k]
    if SAFE[x] ~= true and (type(x) ~= "string" or not is_safe(x)) then return nil end
  end
  return '["' .. concat(t, '","', 1, n) .. '"]'
end

local function encode_table(t, shared, seen)
  local done = seen and seen[t]
  if done then return done end
  local n = #t
  local out
  if n > 0 then
    out = not shared and plain_string_array(t, n)
    if not out then
      local parts = {}
      for k = 1, n do
        local x = t[k]
        local s
        if shared and type(x) == "table" then
          s = SHARED[x]
          if not s then
            s = encode(x, true)
            if not s then return nil end
            SHARED[x] = s
          end
        else
          s = encode(x, shared, seen)
          if not s then return nil end
        end
        parts[k] = s
      end
      out = "[" .. concat(parts, ",", 1, n) .. "]"
    end
  elseif next(t) == nil then
    out = "{}"
  else
    local parts, k = {}, 0
    for key, x in pairs(t) do
      if type(key) ~= "string" then return nil end
      local s = encode(x, shared, seen)
      if not s then return nil end
      parts[k + 1] = quote(key)
      parts[k + 2] = ":"
      parts[k + 3] = s
      parts[k + 4] = ","
      k = k + 4
    end
    out = "{" .. concat(parts, "", 1, k - 1) .. "}" -- (without the last comma)
  end
  if seen then seen[t] = out end
  return out
end

-- encode(value, shared, seen): the JSON text of value, or nil. `shared`: the arrays in value hold
-- tables shared read-only between calls, whose text is memoised. `seen`: text of the tables
-- written so far in this batch, by identity (a table met again is not walked again).
encode = function(v, shared, seen)
  local t = type(v)
  if t == "string" then return quote(v) end
  if t == "table" then return encode_table(v, shared, seen) end
  if t == "boolean" then return v and "true" or "false" end
  if t == "number" and mtype(v) == "integer" then return format("%d", v) end
  return nil
end

-- An encoder for one batch of events (one call of the glue; nothing is kept after it): tables
-- that several events share (the board after the phase is in the position and in the report)
-- are written once.
function M.encoder()
  local seen = {}
  local enc = {}
  -- the value for an event or hex.state.set: its JSON text when it can be written, else itself
  function enc.value(v)
    local text = encode(v, nil, seen)
    if text then return hex.state.json(text) end
    return v
  end
  -- a phase report: its `results` hold the library's shared entries
  function enc.report(result)
    local parts, k = {}, 0
    for key, x in pairs(result) do
      if type(key) ~= "string" then return result end
      local s = encode(x, key == "results", seen)
      if not s then return result end
      parts[k + 1] = quote(key)
      parts[k + 2] = ":"
      parts[k + 3] = s
      parts[k + 4] = ","
      k = k + 4
    end
    if k == 0 then return hex.state.json("{}") end
    return hex.state.json("{" .. concat(parts, "", 1, k - 1) .. "}")
  end
  return enc
end

return M
