// Touchline RFID hub: several MFRC522 readers on one SPI bus, reported over USB serial.
//
// Speaks protocol version 1 of drivers/HUB_PROTOCOL.md: checksummed lines
//   $HELLO,1,<readers>,<firmware>*XX   $TAG,<n>,<uid>*XX   $GONE,<n>,<uid>*XX
//   $READER,<n>,UP|DOWN,<detail>*XX     $BEAT,<n>*XX        $ERR,<code>,<text>*XX   $SYNC*XX
// and answers $QUERY*4A with HELLO, every reader's state and SYNC.
//
// Library: "MFRC522" by GithubCommunity (miguelbalboa/rfid), 1.4.x, from the Arduino Library Manager.
// Wiring: all readers share SCK/MOSI/MISO and one RST line; each has its own SS (SDA) pin below.
// Readers run on 3.3 V: on a 5 V board, power them from 3.3 V and level-shift SS/SCK/MOSI and RST
// (docs/WIRING.md).
//
// The sketch holds the shared RST line high itself and sets each reader up with a SoftReset: the library's
// PCD_Init(ss, rst) lets the line float and, finding it low, pulses it, which resets every other reader on it
// and leaves their antennas off. Every two seconds each reader's settings are read back (antenna, modulation,
// timer, gain) and a reader that lost them (a brown-out, a pulse on the line) is set up again.

#include <SPI.h>
#include <MFRC522.h>

static const char FIRMWARE[] = "touchline-hub 1.0";
static const uint8_t PROTOCOL_VERSION = 1;

// Edit these for your board: one SS pin per reader, in the order the table file numbers them (1, 2, ...).
static const uint8_t SS_PINS[] = {10, 9, 8, 7, 6};  // five: four seats and the shared Opponent pad
static const uint8_t RST_PIN = 5;
static const uint8_t READERS = sizeof(SS_PINS) / sizeof(SS_PINS[0]);

// A card must be missed this many polls in a row before it counts as gone: a card slid across a
// reader, or a read that fails now and then, gives one TAG and one GONE, not a flurry.
static const uint8_t MISSES_BEFORE_GONE = 3;
static const unsigned long POLL_INTERVAL_MS = 30;      // per sweep of all readers
static const unsigned long HEARTBEAT_MS = 1000;
static const unsigned long HEALTH_CHECK_MS = 2000;     // how often each reader's version and settings are read
static const uint8_t MAX_LINE = 120;
// Receiver gain (RFCfgReg RxGain): 33 dB is the chip's reset value. Raise it (38, 43, 48 dB) when a card is not
// read through a thick board; lower it (23 dB) when a reader sees the card on the pad next to it.
static const byte ANTENNA_GAIN = MFRC522::RxGain_33dB;
// How long an exchange waits for a card: the library sets 25 ms, and waits that long on every empty poll and
// every HLTA. Cards answer within a millisecond; 5 ms (200 ticks of 25 us) makes a sweep of five empty readers
// take about 26 ms instead of 126 ms (README.md, "Sweep time").
static const uint16_t POLL_TIMEOUT_TICKS = 200;

MFRC522 readers[READERS];

struct ReaderState {
  bool up;
  bool present;
  uint8_t misses;
  uint8_t uidSize;
  uint8_t uid[10];
};
ReaderState state[READERS];

unsigned long lastBeat = 0;
unsigned long lastHealthCheck = 0;
unsigned long lastPoll = 0;
uint16_t beatCount = 0;
char hostLine[MAX_LINE + 8];
uint8_t hostLength = 0;

// ---- framing ------------------------------------------------------------------------------------

uint8_t xorChecksum(const char *body) {
  uint8_t sum = 0;
  while (*body) sum ^= (uint8_t)*body++;
  return sum;
}

// Sends "$<body>*XX\r\n".
void sendLine(const char *body) {
  char tail[6];
  snprintf(tail, sizeof(tail), "*%02X", xorChecksum(body));
  Serial.print('$');
  Serial.print(body);
  Serial.print(tail);
  Serial.print("\r\n");
}

void uidToHex(const uint8_t *uid, uint8_t size, char *out) {
  static const char HEX_DIGITS[] = "0123456789ABCDEF";
  for (uint8_t i = 0; i < size; i++) {
    out[2 * i] = HEX_DIGITS[uid[i] >> 4];
    out[2 * i + 1] = HEX_DIGITS[uid[i] & 0x0F];
  }
  out[2 * size] = '\0';
}

void sendTag(const char *kind, uint8_t reader) {
  char hex[21];
  char body[48];
  uidToHex(state[reader].uid, state[reader].uidSize, hex);
  snprintf(body, sizeof(body), "%s,%u,%s", kind, reader + 1, hex);
  sendLine(body);
}

void sendReader(uint8_t reader, const char *updown, const char *detail) {
  char body[48];
  snprintf(body, sizeof(body), "READER,%u,%s,%s", reader + 1, updown, detail);
  sendLine(body);
}

void sendHelloAndState() {
  char body[64];
  snprintf(body, sizeof(body), "HELLO,%u,%u,%s", PROTOCOL_VERSION, READERS, FIRMWARE);
  sendLine(body);
  for (uint8_t r = 0; r < READERS; r++) {
    if (!state[r].up) {
      sendReader(r, "DOWN", "no answer");
    } else if (state[r].present) {
      sendTag("TAG", r);
    }
  }
  sendLine("SYNC");
}

// ---- readers ------------------------------------------------------------------------------------

bool readerAnswers(uint8_t r, char *detail, size_t size);

// Sets one reader up without touching the shared reset line: a SoftReset, the library's settings, our gain and
// poll timeout.
void setUpReader(uint8_t r) {
  MFRC522 &reader = readers[r];
  reader.PCD_Init(SS_PINS[r], MFRC522::UNUSED_PIN);
  reader.PCD_SetAntennaGain(ANTENNA_GAIN);
  reader.PCD_WriteRegister(MFRC522::TReloadRegH, POLL_TIMEOUT_TICKS >> 8);
  reader.PCD_WriteRegister(MFRC522::TReloadRegL, POLL_TIMEOUT_TICKS & 0xFF);
}

// True while the registers a reset puts back still hold what setUpReader wrote.
bool settingsHold(uint8_t r) {
  MFRC522 &reader = readers[r];
  return (reader.PCD_ReadRegister(MFRC522::TxControlReg) & 0x03) == 0x03 &&
         reader.PCD_ReadRegister(MFRC522::TxASKReg) == 0x40 && reader.PCD_ReadRegister(MFRC522::TModeReg) == 0x80 &&
         (reader.PCD_ReadRegister(MFRC522::RFCfgReg) & 0x70) == ANTENNA_GAIN &&
         reader.PCD_ReadRegister(MFRC522::TReloadRegL) == (POLL_TIMEOUT_TICKS & 0xFF);
}

// Sets a reader that answers but lost its settings up again, and says so; true when it did.
bool restoreSettings(uint8_t r) {
  char version[8];
  if (settingsHold(r) || !readerAnswers(r, version, sizeof(version))) return false;
  setUpReader(r);
  char body[64];
  snprintf(body, sizeof(body), "ERR,SETUP,reader %u had lost its settings and is set up again", r + 1);
  sendLine(body);
  return true;
}

// VersionReg reads 0x91/0x92 (or 0x88/0x12 on clones); 0x00 or 0xFF means nothing answers on that SS.
bool readerAnswers(uint8_t r, char *detail, size_t size) {
  byte version = readers[r].PCD_ReadRegister(MFRC522::VersionReg);
  snprintf(detail, size, "0x%02X", version);
  return version != 0x00 && version != 0xFF;
}

// Reports a reader going down (with its card gone) or coming back; returns whether it answers.
bool checkReader(uint8_t r) {
  char detail[8];
  bool answers = readerAnswers(r, detail, sizeof(detail));
  if (answers && !state[r].up) {
    setUpReader(r);  // it was unplugged or browned out: configure it again (it alone)
    state[r].up = true;
    sendReader(r, "UP", detail);
  } else if (answers) {
    restoreSettings(r);
  } else if (!answers && state[r].up) {
    state[r].up = false;
    char why[24];
    snprintf(why, sizeof(why), "version %s", detail);
    sendReader(r, "DOWN", why);
    if (state[r].present) {
      sendTag("GONE", r);
      state[r].present = false;
      state[r].misses = 0;
    }
  }
  return answers;
}

// One poll of one reader: true when a card answered, with its full UID in readers[r].uid.
// WUPA instead of REQA (PICC_IsNewCardPresent) wakes a card we halted after the last read, so a card
// resting on the reader answers every poll instead of every other one.
bool pollCard(uint8_t r) {
  byte atqa[2];
  byte atqaSize = sizeof(atqa);
  MFRC522 &reader = readers[r];
  MFRC522::StatusCode status = reader.PICC_WakeupA(atqa, &atqaSize);
  if (status != MFRC522::STATUS_OK && status != MFRC522::STATUS_COLLISION) {
    return false;
  }
  // PICC_Select runs the cascade levels, so 7-byte NTAG UIDs come back whole.
  if (reader.PICC_Select(&reader.uid) != MFRC522::STATUS_OK) {
    return false;
  }
  reader.PICC_HaltA();
  return true;
}

void pollReader(uint8_t r) {
  if (!state[r].up) return;
  ReaderState &s = state[r];
  bool found = pollCard(r);
  if (!found && s.present && s.misses == 0 && restoreSettings(r)) {
    found = pollCard(r);  // the card lay there a sweep ago: the reader had lost its set-up, not the card
  }
  if (found) {
    MFRC522::Uid &uid = readers[r].uid;
    bool same = s.present && s.uidSize == uid.size && memcmp(s.uid, uid.uidByte, uid.size) == 0;
    if (!same) {
      if (s.present) sendTag("GONE", r);  // another card replaced it without a gap
      s.uidSize = uid.size;
      memcpy(s.uid, uid.uidByte, uid.size);
      s.present = true;
      sendTag("TAG", r);
    }
    s.misses = 0;
  } else if (s.present && ++s.misses >= MISSES_BEFORE_GONE) {
    // A dead reader also stops seeing cards: say so first, rather than only "the card went away".
    if (!checkReader(r)) return;
    sendTag("GONE", r);
    s.present = false;
    s.misses = 0;
  }
}

// ---- host lines ---------------------------------------------------------------------------------

void handleHostLine(char *line) {
  size_t length = strlen(line);
  while (length && (line[length - 1] == '\r' || line[length - 1] == ' ')) line[--length] = '\0';
  if (length < 4 || line[0] != '$' || line[length - 3] != '*') {
    sendLine("ERR,LINE,not framed");
    return;
  }
  line[length - 3] = '\0';
  const char *body = line + 1;
  unsigned int sent = strtoul(line + length - 2, NULL, 16);
  if (sent != xorChecksum(body)) {
    sendLine("ERR,LINE,bad checksum");
    return;
  }
  if (strcmp(body, "QUERY") == 0) {
    sendHelloAndState();
  } else {
    sendLine("ERR,LINE,unknown command");
  }
}

void readHost() {
  while (Serial.available()) {
    char c = (char)Serial.read();
    if (c == '\n') {
      hostLine[hostLength] = '\0';
      if (hostLength) handleHostLine(hostLine);
      hostLength = 0;
    } else if (hostLength < MAX_LINE + 6) {
      hostLine[hostLength++] = c;
    } else {
      hostLength = 0;  // an endless line is noise: drop it
      sendLine("ERR,LINE,too long");
    }
  }
}

// ---- main ---------------------------------------------------------------------------------------

void setup() {
  Serial.begin(115200);
  // Boards with native USB: give the host a moment to open the port, but never wait forever.
  while (!Serial && millis() < 2000) {
  }
  SPI.begin();
  for (uint8_t r = 0; r < READERS; r++) {
    pinMode(SS_PINS[r], OUTPUT);
    digitalWrite(SS_PINS[r], HIGH);  // deselect every reader before talking to any of them
  }
  // One reset for all readers, then the line is held high for good; the oscillators get 50 ms to start
  // (datasheet 8.8.2, as the library waits).
  pinMode(RST_PIN, OUTPUT);
  digitalWrite(RST_PIN, LOW);
  delay(1);
  digitalWrite(RST_PIN, HIGH);
  delay(50);
  char detail[8];
  for (uint8_t r = 0; r < READERS; r++) {
    setUpReader(r);
    state[r].up = readerAnswers(r, detail, sizeof(detail));
    state[r].present = false;
    state[r].misses = 0;
  }
  sendHelloAndState();
}

void loop() {
  unsigned long now = millis();
  readHost();
  if (now - lastPoll >= POLL_INTERVAL_MS) {
    lastPoll = now;
    for (uint8_t r = 0; r < READERS; r++) pollReader(r);
  }
  if (now - lastHealthCheck >= HEALTH_CHECK_MS) {
    lastHealthCheck = now;
    for (uint8_t r = 0; r < READERS; r++) checkReader(r);
  }
  if (now - lastBeat >= HEARTBEAT_MS) {
    lastBeat = now;
    char body[16];
    snprintf(body, sizeof(body), "BEAT,%u", beatCount++);
    sendLine(body);
  }
}
