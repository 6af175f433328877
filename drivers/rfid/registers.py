"""MFRC522 registers, commands and ISO 14443-A frame facts shared by the reader and the simulated chip.

Section numbers refer to the NXP MFRC522 datasheet (rev. 3.9) and to ISO/IEC 14443-3.  Keeping them here,
apart from both the bus and the simulation, is what lets one side be checked against the other.
"""

from __future__ import annotations

from collections.abc import Sequence

# --- Registers (datasheet 9.2) -------------------------------------------------------------------
COMMAND = 0x01  # 9.3.1.2 CommandReg: bits 3..0 the command, bit 4 PowerDown, bit 5 RcvOff
COMM_IEN = 0x02  # 9.3.1.3 ComIEnReg
DIV_IEN = 0x03  # 9.3.1.4 DivIEnReg
COMM_IRQ = 0x04  # 9.3.1.5 ComIrqReg: bit 7 Set1 selects set/clear of the marked bits on write
DIV_IRQ = 0x05  # 9.3.1.6 DivIrqReg: bit 7 Set2, bit 2 CRCIRq
ERROR = 0x06  # 9.3.1.7 ErrorReg
STATUS1 = 0x07  # 9.3.1.8 Status1Reg
STATUS2 = 0x08  # 9.3.1.9 Status2Reg: bit 3 MFCrypto1On
FIFO_DATA = 0x09  # 9.3.1.10 FIFODataReg
FIFO_LEVEL = 0x0A  # 9.3.1.11 FIFOLevelReg: bit 7 FlushBuffer on write, level 6..0 on read
WATER_LEVEL = 0x0B
CONTROL = 0x0C  # 9.3.1.13 ControlReg: bit 7 TStopNow, bit 6 TStartNow, bits 2..0 RxLastBits
BIT_FRAMING = 0x0D  # 9.3.1.14 BitFramingReg: bit 7 StartSend, bits 6..4 RxAlign, bits 2..0 TxLastBits
COLL = 0x0E  # 9.3.1.15 CollReg
MODE = 0x11  # 9.3.2.2 ModeReg: bits 1..0 CRCPreset
TX_MODE = 0x12  # 9.3.2.3 TxModeReg: bit 7 TxCRCEn
RX_MODE = 0x13  # 9.3.2.4 RxModeReg: bit 7 RxCRCEn
TX_CONTROL = 0x14  # 9.3.2.5 TxControlReg: bits 1..0 Tx2RFEn/Tx1RFEn (the antenna)
TX_ASK = 0x15  # 9.3.2.6 TxASKReg (the mfrc522 package calls it TxAutoReg)
RF_CFG = 0x26  # 9.3.3.6 RFCfgReg: bits 6..4 RxGain
CRC_RESULT_H = 0x21  # 9.3.3.2 CRCResultReg, high byte
CRC_RESULT_L = 0x22
DEMOD = 0x19  # 9.3.2.10 DemodReg: bit 4 TPrescalEven
T_MODE = 0x2A  # 9.3.3.10 TModeReg: bit 7 TAuto, bit 4 TAutoRestart, bits 3..0 TPrescaler_Hi
T_PRESCALER = 0x2B  # 9.3.3.11 TPrescalerReg: TPrescaler_Lo
T_RELOAD_H = 0x2C  # 9.3.3.12 TReloadReg
T_RELOAD_L = 0x2D
T_COUNTER_H = 0x2E  # 9.3.3.13 TCounterValReg
T_COUNTER_L = 0x2F
VERSION = 0x37  # 9.3.4.8 VersionReg

# --- Commands (datasheet 10.3) -------------------------------------------------------------------
CMD_IDLE = 0x00
CMD_MEM = 0x01
CMD_CALC_CRC = 0x03
CMD_TRANSMIT = 0x04
CMD_NO_CHANGE = 0x07
CMD_RECEIVE = 0x08
CMD_TRANSCEIVE = 0x0C
CMD_MF_AUTHENT = 0x0E
CMD_SOFT_RESET = 0x0F

# --- Interrupt and status bits -------------------------------------------------------------------
IRQ_SET = 0x80
IRQ_TX = 0x40
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_HI_ALERT = 0x08
IRQ_LO_ALERT = 0x04
IRQ_ERR = 0x02
IRQ_TIMER = 0x01
DIV_IRQ_CRC = 0x04
ERR_WR = 0x80
ERR_TEMP = 0x40
ERR_BUFFER_OVFL = 0x10
ERR_COLL = 0x08
ERR_CRC = 0x04
ERR_PARITY = 0x02
ERR_PROTOCOL = 0x01
STATUS2_CRYPTO1_ON = 0x08
START_SEND = 0x80
FLUSH_BUFFER = 0x80
T_AUTO = 0x80
T_AUTO_RESTART = 0x10
T_STOP_NOW = 0x80
T_START_NOW = 0x40
CRC_EN = 0x80

FIFO_SIZE = 64  # 8.3.1

# RFCfgReg RxGain (9.3.3.6, table 98): the receiver's gain in dB for each value of bits 6..4.
RX_GAIN_DB = (18, 23, 18, 23, 33, 38, 43, 48)
RX_GAIN_CHOICES = (18, 23, 33, 38, 43, 48)
RX_GAIN_DEFAULT_DB = 33  # the reset value (RFCfgReg 0x48)


def rf_cfg_for(gain_db: int) -> int:
    """RFCfgReg's value for a receiver gain in dB (the reserved bits as after reset)."""
    return (RX_GAIN_DB.index(gain_db, 2 if gain_db in (18, 23) else 0) << 4) | 0x08


# What the reader's set-up leaves in the registers a reset or brown-out puts back (9.3.2.5, 9.3.2.6, 9.3.3.10):
# both antenna drivers on, 100 % ASK, and the timer started by every transmission.
TX_CONTROL_ANTENNA = 0x03
TX_ASK_FORCE_100 = 0x40

# Version register values (9.3.4.8); clones answer with their own numbers.
VERSIONS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 (clone)", 0xB2: "FM17522 (clone)",
            0x12: "MFRC522 (counterfeit)"}
# What a reader whose chip is missing or unpowered reads back: MISO floating low or high.
ABSENT_VERSIONS = (0x00, 0xFF)

# --- ISO 14443-3 type A ---------------------------------------------------------------------------
REQA = 0x26
WUPA = 0x52
SEL_CL1 = 0x93
SEL_CL2 = 0x95
SEL_CL3 = 0x97
NVB_ANTICOLL = 0x20  # two bytes sent, no UID bits known
NVB_SELECT = 0x70  # seven bytes sent: the whole cascade level
CASCADE_TAG = 0x88  # 6.5.4: first byte of a cascade level that is followed by another level
SAK_CASCADE = 0x04  # SAK bit 3: UID not complete
HLTA = (0x50, 0x00)
MF_AUTH_KEY_A = 0x60
MF_AUTH_KEY_B = 0x61
MF_READ = 0x30
MF_WRITE = 0xA0
NTAG_WRITE = 0xA2
MF_ACK = 0x0A

# 106 kbit/s: one bit lasts 128 carrier periods (ISO 14443-2, 8.1.2).
CARRIER_HZ = 13_560_000
BIT_SECONDS = 128 / CARRIER_HZ
# Frame delay time PCD -> PICC for the commands used here, 1236/fc (ISO 14443-3, 6.2.1.1).
FDT_SECONDS = 1236 / CARRIER_HZ


def frame_bits(nbytes: int, last_bits: int = 0) -> int:
    """Bits a frame takes on air: start of frame, 8 data bits + parity per byte, end of frame."""
    if nbytes == 0:
        return 0
    if last_bits:  # a short or bit-oriented frame: the last byte carries only ``last_bits`` bits
        return 1 + (nbytes - 1) * 9 + last_bits + 1
    return 1 + nbytes * 9 + 1


def air_seconds(nbytes: int, last_bits: int = 0) -> float:
    """Time a frame of ``nbytes`` (the last one holding ``last_bits`` bits, 0 for all) takes at 106 kbit/s."""
    return frame_bits(nbytes, last_bits) * BIT_SECONDS


def crc_a(data: bytes | bytearray | Sequence[int], preset: int = 0x6363) -> bytes:
    """ISO 14443-A CRC_A (ISO 14443-3 annex B) of ``data``, low byte first as it goes on air."""
    crc = preset
    for byte in data:
        ch = (byte ^ crc) & 0xFF
        ch = (ch ^ (ch << 4)) & 0xFF
        crc = ((crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def bcc(data: bytes | bytearray | Sequence[int]) -> int:
    """Block check character of a cascade level: the XOR of its four UID bytes."""
    out = 0
    for byte in data:
        out ^= byte
    return out


def timer_seconds(t_mode: int, t_prescaler: int, t_reload: int, prescale_even: bool = False) -> float:
    """Period of the chip's timer for the given TModeReg, TPrescalerReg and TReloadReg values (datasheet 8.5)."""
    prescaler = ((t_mode & 0x0F) << 8) | t_prescaler
    divider = 2 * prescaler + (2 if prescale_even else 1)
    return divider * (t_reload + 1) / CARRIER_HZ


def timer_settings(seconds: float) -> tuple[int, int, int]:
    """TModeReg (with TAuto), TPrescalerReg and TReloadReg values for a timeout of about ``seconds``."""
    prescaler = 169  # 25 us ticks: fine enough for sub-millisecond poll timeouts, long enough for 1.6 s
    tick = (2 * prescaler + 1) / CARRIER_HZ
    reload = max(1, min(0xFFFF, round(seconds / tick) - 1))
    return T_AUTO | (prescaler >> 8), prescaler & 0xFF, reload
