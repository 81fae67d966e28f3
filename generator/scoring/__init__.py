"""Pure scoring: records in, scores out. No I/O, no encoding, no clock."""
