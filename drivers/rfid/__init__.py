"""MFRC522 RFID readers on SPI: the reader, the scanner that turns polls into taps and lifts, and the simulation.

Nothing here imports ``spidev``, ``RPi.GPIO`` or ``mfrc522`` at import time: the real backend does, when a
reader is opened on hardware.
"""

from drivers.rfid.reader import ID_BLOCK, Reader, open_reader, probe_reader
from drivers.rfid.scanner import Scanner, open_scanner
from drivers.rfid.sim import SimCard, SimMfrc522, SimRig, default_rig, sim_card

__all__ = ["ID_BLOCK", "Reader", "Scanner", "SimCard", "SimMfrc522", "SimRig", "default_rig", "open_reader",
           "open_scanner", "probe_reader", "sim_card"]
