-- A facing is one of six directions (TA-R1); 9 is none.
return function()
  return { event = "UnitFacingChanged", unit = "b1", facing = 9 }
end
