// A stand-in for miguelbalboa's MFRC522 class with the same method names, over a simulated ISO 14443-A
// card per reader that keeps the card states (IDLE, READY, ACTIVE, HALT): a card that was selected and
// not halted ignores REQA and WUPA, a halted card answers only WUPA. So the host test shows whether the
// sketch's polling keeps a resting card visible on every poll.
#pragma once
#include "Arduino.h"

struct SimCard {
  bool present = false;
  byte uid[10] = {0};
  byte size = 0;
  enum State { IDLE, READY, ACTIVE, HALT } state = IDLE;
  int missNext = 0;  // the next polls that get no answer (a card at the edge of the field)
};

struct SimChip {
  bool alive = true;
  SimCard card;
};

SimChip &simChip(byte ssPin);

class MFRC522 {
 public:
  enum PCD_Register : byte { VersionReg = 0x37 << 1 };
  enum StatusCode : byte { STATUS_OK, STATUS_ERROR, STATUS_COLLISION, STATUS_TIMEOUT };
  struct Uid {
    byte size;
    byte uidByte[10];
    byte sak;
  };
  Uid uid{};

  void PCD_Init(byte chipSelectPin, byte resetPowerDownPin) {
    ss_ = chipSelectPin;
    (void)resetPowerDownPin;
  }
  byte PCD_ReadRegister(PCD_Register reg) {
    if (!simChip(ss_).alive) return 0x00;
    return reg == VersionReg ? 0x92 : 0x00;
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
    if (!simChip(ss_).alive || !card.present || card.state != SimCard::READY) return STATUS_TIMEOUT;
    card.state = SimCard::ACTIVE;
    out->size = card.size;
    std::memcpy(out->uidByte, card.uid, card.size);
    out->sak = card.size == 7 ? 0x00 : 0x08;
    return STATUS_OK;
  }
  bool PICC_ReadCardSerial() { return PICC_Select(&uid) == STATUS_OK; }
  StatusCode PICC_HaltA() {
    SimCard &card = simChip(ss_).card;
    if (card.present && card.state == SimCard::ACTIVE) card.state = SimCard::HALT;
    return STATUS_OK;
  }

 private:
  byte ss_ = 0;

  StatusCode request(bool wakeup, byte *atqa, byte *size) {
    SimCard &card = simChip(ss_).card;
    if (!simChip(ss_).alive || !card.present) return STATUS_TIMEOUT;
    if (card.missNext > 0) {
      card.missNext--;
      return STATUS_TIMEOUT;
    }
    if (card.state == SimCard::ACTIVE) {  // ISO 14443-3: an unexpected command sends it back, silent
      card.state = SimCard::IDLE;
      return STATUS_TIMEOUT;
    }
    if (card.state == SimCard::HALT && !wakeup) return STATUS_TIMEOUT;
    card.state = SimCard::READY;
    if (*size >= 2) {
      atqa[0] = card.size == 7 ? 0x44 : 0x04;
      atqa[1] = 0x00;
      *size = 2;
    }
    return STATUS_OK;
  }
};
