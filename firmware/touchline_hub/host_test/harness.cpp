// Runs touchline_hub.ino on a PC. Reads a script on stdin, one command a line:
//   run <ms>               let <ms> milliseconds pass, calling loop() every millisecond
//   place <reader> <hex>   put a card on reader <reader> (1-based)
//   lift <reader>          take it away
//   miss <reader> <n>      the next <n> polls of that reader get no answer
//   down <reader> / up <reader>   the reader stops / starts answering
//   host <text>            the host sends <text> and a newline
// Everything the sketch prints goes to stdout; each command is echoed as a line starting with '#'.
#include <iostream>
#include <map>
#include <sstream>

#include "Arduino.h"
#include "MFRC522.h"
#include "SPI.h"

HostSerial Serial;
HostSPI SPI;
static unsigned long now_ms = 0;
unsigned long millis() { return now_ms; }

static std::map<byte, SimChip> chips;
SimChip &simChip(byte ssPin) { return chips[ssPin]; }

// The sketch itself, built as one translation unit with the harness (as the Arduino builder does).
#include "touchline_hub.ino"

int main() {
  setup();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string command;
    in >> command;
    std::printf("# %s\n", line.c_str());
    int reader = 0;
    if (command == "run") {
      unsigned long ms = 0;
      in >> ms;
      for (unsigned long i = 0; i < ms; i++) {
        now_ms++;
        loop();
      }
    } else if (command == "host") {
      std::string rest;
      std::getline(in, rest);
      Serial.input += rest.substr(rest.find_first_not_of(' ')) + "\n";
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
      }
    }
    std::fflush(stdout);
  }
  return 0;
}
