-- An error message with NUL bytes in it: the part after the first NUL could hide what went
-- wrong (mlua's traceback reads the message as a C string).
return function()
  error("visible\0hidden part\0 end")
end
