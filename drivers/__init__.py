"""Hardware drivers: RFID readers, the RFID hub, buttons, displays and dice.

Each kind of hardware has one interface, a real backend and a simulated backend that
simulates the chip or pin, so the real library code runs above it.  Nothing here imports
anything else of Touchline's.
"""
