hex.rules.sequence { steps = {} }
