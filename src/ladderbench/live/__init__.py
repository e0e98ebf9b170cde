"""The live suite: contamination-limited tasks generated fresh for each dated release."""
