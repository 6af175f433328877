// Runs touchline_hub.ino on a PC. Reads a script on stdin, one command a line:
//   run <ms>               let <ms> milliseconds of simulated time pass, calling loop() as the board would
//   place <reader> <hex>   put a card on reader <reader> (1-based)
//   lift <reader>          take it away
//   miss <reader> <n>      the next <n> polls of that reader get no answer
//   down <reader> / up <reader>   the reader stops / starts answering (a loose wire)
//   brownout <reader>      the reader's supply dips: its registers go back to their reset values
//   pulse                  something else pulses the shared reset line low for 1 ms
//   host <text>            the host sends <text> and a newline
// Everything the sketch prints goes to stdout; each command is echoed as a line starting with '#'. On stderr, each
// line the sketch sends is written again after the simulated time (in microseconds) at which it was sent; at the
// end come "reset <pin> <mode> <level>" and one "resets <reader> <hard resets>" line per reader.
#include <iostream>
#include <sstream>

#include "Arduino.h"
#include "MFRC522.h"
#include "SPI.h"

HostSerial Serial;
HostSPI SPI;
unsigned long long now_us = 0;
std::map<uint8_t, PinState> pins;

static std::map<byte, SimChip> chips;
SimChip &simChip(byte ssPin) { return chips[ssPin]; }
std::vector<SimChip *> allChips() {
  std::vector<SimChip *> out;
  for (auto &entry : chips) out.push_back(&entry.second);
  return out;
}

void lineChanged(uint8_t pin) {
  uint8_t level = lineLevel(pin);
  for (SimChip *chip : allChips()) {
    if (chip->rstPin != pin) continue;
    if (level == LOW) {
      chip->powered = false;
    } else if (!chip->powered) {
      chip->powerUp();  // a rising edge on NRSTPD: a hard reset
    }
  }
}

// The sketch itself, built as one translation unit with the harness (as the Arduino builder does).
#include "touchline_hub.ino"

int main() {
  for (uint8_t r = 0; r < READERS; r++) simChip(SS_PINS[r]).rstPin = RST_PIN;  // one shared reset line
  lineChanged(RST_PIN);  // floating since power-on: the readers sit in reset until the sketch drives it
  setup();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string command;
    in >> command;
    std::printf("# %s\n", line.c_str());
    std::fprintf(stderr, "%llu # %s\n", now_us, line.c_str());
    int reader = 0;
    if (command == "run") {
      unsigned long ms = 0;
      in >> ms;
      unsigned long long end = now_us + 1000ULL * ms;
      while (now_us < end) {
        unsigned long long before = now_us;
        loop();
        if (now_us == before) now_us += 100;  // loop() itself takes a little time on a board
      }
    } else if (command == "host") {
      std::string rest;
      std::getline(in, rest);
      Serial.input += rest.substr(rest.find_first_not_of(' ')) + "\n";
    } else if (command == "pulse") {
      PinState saved = pins[RST_PIN];
      pins[RST_PIN].mode = OUTPUT;
      pins[RST_PIN].level = LOW;
      lineChanged(RST_PIN);
      now_us += 1000;
      pins[RST_PIN] = saved;
      pins[RST_PIN].mode = OUTPUT;
      pins[RST_PIN].level = HIGH;
      lineChanged(RST_PIN);
      pins[RST_PIN] = saved;
      lineChanged(RST_PIN);
    } else if (in >> reader) {
      SimChip &chip = simChip(SS_PINS[reader - 1]);
      if (command == "place") {
        std::string hex;
        in >> hex;
        chip.card.present = true;
        chip.card.state = SimCard::IDLE;
        chip.card.size = static_cast<byte>(hex.size() / 2);
        for (byte i = 0; i < chip.card.size; i++) {
          chip.card.uid[i] = static_cast<byte>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
        }
      } else if (command == "lift") {
        chip.card.present = false;
      } else if (command == "miss") {
        in >> chip.card.missNext;
      } else if (command == "down") {
        chip.alive = false;
      } else if (command == "up") {
        chip.alive = true;
      } else if (command == "brownout") {
        chip.powerUp();
      }
    }
  }
  std::fflush(stdout);
  const PinState &reset = pins[RST_PIN];
  std::fprintf(stderr, "reset %u %s %s\n", RST_PIN, reset.mode == OUTPUT ? "OUTPUT" : "INPUT",
               reset.level == HIGH ? "HIGH" : "LOW");
  for (uint8_t r = 0; r < READERS; r++) {
    std::fprintf(stderr, "resets %u %u\n", r + 1, simChip(SS_PINS[r]).hardResets);
  }
  return 0;
}
