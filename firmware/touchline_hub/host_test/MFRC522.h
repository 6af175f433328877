// A stand-in for miguelbalboa's MFRC522 library (1.4.x) with the same method names and the same behaviour where it
// matters to the sketch, over a simulated chip and ISO 14443-A card per SS pin:
//  * registers that a hard reset (a rising edge on the shared NRSTPD line) or a brown-out puts back to their reset
//    values (antenna off, timer stopped), and an oscillator that needs time to start before the chip hears SPI;
//  * PCD_Init as the library does it: with a reset pin, it lets the line float, and if it reads LOW drives it
//    LOW then HIGH (resetting every chip on it) and waits 50 ms; without one, a SoftReset and 50 ms;
//  * the library's waits charged to the simulated clock: an exchange that gets no answer waits for the chip's
//    timer (25 ms with the library's settings), or 2,000 ComIrqReg reads (35.7 ms) when the timer never starts;
//  * card states (IDLE, READY, ACTIVE, HALT): a selected card that was not halted ignores REQA and WUPA.
#pragma once
#include <vector>

#include "Arduino.h"

struct SimCard {
  bool present = false;
  byte uid[10] = {0};
  byte size = 0;
  enum State { IDLE, READY, ACTIVE, HALT } state = IDLE;
  int missNext = 0;  // the next polls that get no answer (a card at the edge of the field)
};

struct SimChip {
  bool alive = true;  // wired and answering on its SS pin
  bool powered = false;
  unsigned long long awakeAt = 0;
  uint8_t rstPin = 255;
  byte regs[64] = {0};
  unsigned hardResets = 0;
  SimCard card;

  static constexpr unsigned long long OSCILLATOR_US = 5000;  // datasheet 8.8.2: the crystal's start-up
  void resetRegisters() {
    std::memset(regs, 0, sizeof(regs));
    regs[0x01] = 0x20;  // CommandReg
    regs[0x14] = 0x80;  // TxControlReg: antenna off
    regs[0x26] = 0x48;  // RFCfgReg: RxGain 33 dB
    regs[0x37] = 0x92;  // VersionReg
    card.state = SimCard::IDLE;  // the field went away with the reset
  }
  void powerUp() {
    resetRegisters();
    powered = true;
    awakeAt = now_us + OSCILLATOR_US;
    hardResets++;
  }
  bool awake() const { return alive && powered && now_us >= awakeAt; }
  bool antennaOn() const { return (regs[0x14] & 0x03) == 0x03; }
  // The timer's period in microseconds (datasheet 8.5), or 0 when TAuto is off and it never starts by itself.
  unsigned long long timerUs() const {
    if (!(regs[0x2A] & 0x80)) return 0;
    unsigned prescaler = ((regs[0x2A] & 0x0F) << 8) | regs[0x2B];
    unsigned reload = (regs[0x2C] << 8) | regs[0x2D];
    return (2ULL * prescaler + 1) * (reload + 1) * 1000000ULL / 13560000ULL;
  }
};

SimChip &simChip(byte ssPin);
std::vector<SimChip *> allChips();

class MFRC522 {
 public:
  static constexpr uint8_t UNUSED_PIN = UINT8_MAX;
  enum PCD_Register : byte {
    CommandReg = 0x01 << 1,
    TxModeReg = 0x12 << 1,
    RxModeReg = 0x13 << 1,
    TxControlReg = 0x14 << 1,
    TxASKReg = 0x15 << 1,
    ModeReg = 0x11 << 1,
    ModWidthReg = 0x24 << 1,
    RFCfgReg = 0x26 << 1,
    TModeReg = 0x2A << 1,
    TPrescalerReg = 0x2B << 1,
    TReloadRegH = 0x2C << 1,
    TReloadRegL = 0x2D << 1,
    VersionReg = 0x37 << 1
  };
  enum PCD_RxGain : byte {
    RxGain_18dB = 0x00 << 4,
    RxGain_23dB = 0x01 << 4,
    RxGain_33dB = 0x04 << 4,
    RxGain_38dB = 0x05 << 4,
    RxGain_43dB = 0x06 << 4,
    RxGain_48dB = 0x07 << 4
  };
  enum StatusCode : byte { STATUS_OK, STATUS_ERROR, STATUS_COLLISION, STATUS_TIMEOUT };
  struct Uid {
    byte size;
    byte uidByte[10];
    byte sak;
  };
  Uid uid{};

  static constexpr unsigned long long REGISTER_US = 10;  // one register access over SPI at 4 MHz, with overhead

  void PCD_Init(byte chipSelectPin, byte resetPowerDownPin) {
    ss_ = chipSelectPin;
    pinMode(ss_, OUTPUT);
    digitalWrite(ss_, HIGH);
    bool hardReset = false;
    if (resetPowerDownPin != UNUSED_PIN) {
      pinMode(resetPowerDownPin, INPUT);  // the library lets the line float to look at it
      if (digitalRead(resetPowerDownPin) == LOW) {
        pinMode(resetPowerDownPin, OUTPUT);
        digitalWrite(resetPowerDownPin, LOW);
        delayMicroseconds(2);
        digitalWrite(resetPowerDownPin, HIGH);  // a hard reset of every chip on this line
        delay(50);
        hardReset = true;
      }
    }
    if (!hardReset) {
      PCD_WriteRegister(CommandReg, 0x0F);  // SoftReset
      delay(50);
    }
    PCD_WriteRegister(TxModeReg, 0x00);
    PCD_WriteRegister(RxModeReg, 0x00);
    PCD_WriteRegister(ModWidthReg, 0x26);
    PCD_WriteRegister(TModeReg, 0x80);
    PCD_WriteRegister(TPrescalerReg, 0xA9);
    PCD_WriteRegister(TReloadRegH, 0x03);
    PCD_WriteRegister(TReloadRegL, 0xE8);
    PCD_WriteRegister(TxASKReg, 0x40);
    PCD_WriteRegister(ModeReg, 0x3D);
    byte value = PCD_ReadRegister(TxControlReg);
    if ((value & 0x03) != 0x03) PCD_WriteRegister(TxControlReg, value | 0x03);
  }
  byte PCD_ReadRegister(PCD_Register reg) {
    now_us += REGISTER_US;
    SimChip &chip = simChip(ss_);
    return chip.awake() ? chip.regs[reg >> 1] : 0x00;
  }
  void PCD_WriteRegister(PCD_Register reg, byte value) {
    now_us += REGISTER_US;
    SimChip &chip = simChip(ss_);
    if (!chip.awake()) return;  // lost: the chip is held in reset or its oscillator has not started
    if ((reg >> 1) == 0x01 && (value & 0x0F) == 0x0F) {
      chip.resetRegisters();
      return;
    }
    if ((reg >> 1) != 0x37) chip.regs[reg >> 1] = value;
  }
  byte PCD_GetAntennaGain() { return PCD_ReadRegister(RFCfgReg) & (0x07 << 4); }
  void PCD_SetAntennaGain(byte mask) {
    if (PCD_GetAntennaGain() != mask) {
      byte value = PCD_ReadRegister(RFCfgReg);
      PCD_WriteRegister(RFCfgReg, (value & ~(0x07 << 4)) | (mask & (0x07 << 4)));
    }
  }
  StatusCode PICC_RequestA(byte *atqa, byte *size) { return request(false, atqa, size); }
  StatusCode PICC_WakeupA(byte *atqa, byte *size) { return request(true, atqa, size); }
  bool PICC_IsNewCardPresent() {
    byte atqa[2];
    byte size = sizeof(atqa);
    StatusCode status = PICC_RequestA(atqa, &size);
    return status == STATUS_OK || status == STATUS_COLLISION;
  }
  StatusCode PICC_Select(Uid *out, byte validBits = 0) {
    (void)validBits;
    SimCard &card = simChip(ss_).card;
    if (!hears() || card.state != SimCard::READY) return noAnswer();
    // Anticollision and select at each cascade level: two short exchanges a level.
    exchange(card.size == 7 ? 4 : 2);
    card.state = SimCard::ACTIVE;
    out->size = card.size;
    std::memcpy(out->uidByte, card.uid, card.size);
    out->sak = card.size == 7 ? 0x00 : 0x08;
    return STATUS_OK;
  }
  bool PICC_ReadCardSerial() { return PICC_Select(&uid) == STATUS_OK; }
  StatusCode PICC_HaltA() {
    SimCard &card = simChip(ss_).card;
    if (hears() && card.state == SimCard::ACTIVE) card.state = SimCard::HALT;
    noAnswer();  // a halted card says nothing: the library waits for the timeout and calls that success
    return STATUS_OK;
  }

 private:
  byte ss_ = 0;

  // The register traffic of one transceive (idle, clear IRQs, flush, FIFO, framing, command, start, then the
  // answer's level, FIFO and control) and the frames on air.
  void exchange(int count) { now_us += count * (14 * REGISTER_US + 300); }
  StatusCode noAnswer() {
    SimChip &chip = simChip(ss_);
    now_us += 8 * REGISTER_US;
    unsigned long long timer = chip.awake() ? chip.timerUs() : 0;
    // No timer: the library reads ComIrqReg 2,000 times (17.86 us each on an Uno) before it gives up.
    now_us += timer ? timer : 35700;
    return STATUS_TIMEOUT;
  }
  bool hears() {
    SimChip &chip = simChip(ss_);
    return chip.awake() && chip.antennaOn() && chip.card.present;
  }
  StatusCode request(bool wakeup, byte *atqa, byte *size) {
    SimCard &card = simChip(ss_).card;
    if (!hears()) return noAnswer();
    if (card.missNext > 0) {
      card.missNext--;
      return noAnswer();
    }
    if (card.state == SimCard::ACTIVE) {  // ISO 14443-3: an unexpected command sends it back, silent
      card.state = SimCard::IDLE;
      return noAnswer();
    }
    if (card.state == SimCard::HALT && !wakeup) return noAnswer();
    exchange(1);
    card.state = SimCard::READY;
    if (*size >= 2) {
      atqa[0] = card.size == 7 ? 0x44 : 0x04;
      atqa[1] = 0x00;
      *size = 2;
    }
    return STATUS_OK;
  }
};
