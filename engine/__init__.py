"""The rules of Eleven as a pure reducer: no clock, no randomness, no I/O, no threads."""
