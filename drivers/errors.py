"""Errors raised by drivers; each also inherits the matching built-in so callers can catch either."""

from __future__ import annotations


class DriverError(Exception):
    """Base of every driver error."""


class DriverConfigError(DriverError, ValueError):
    """A driver was configured with values that cannot work (bad bus, address or pin)."""


class DeviceNotFound(DriverError, OSError):
    """The hardware did not answer where it was expected, e.g. 'MFRC522 not found on SPI0.1 (version register read 0x00)'."""


class DeviceIOError(DriverError, OSError):
    """The hardware answered, but an exchange with it failed."""


class DiceScriptExhausted(DriverError, LookupError):
    """Scripted dice were asked for more rolls than the script holds."""


class HubProtocolError(DriverError, ValueError):
    """A line from the RFID hub was garbled, failed its checksum or was not understood."""


class BackendUnavailable(DriverError, RuntimeError):
    """The real backend's hardware libraries (spidev, RPi.GPIO) cannot be imported on this machine."""


class CardError(DriverError, RuntimeError):
    """A card on a reader could not be read or written as asked (no card, wrong key, not a MIFARE Classic)."""


class HardwareBusy(DriverError, RuntimeError):
    """Another program holds the table's hardware (the running table, or another hw-check or enroll)."""
