// Just enough of the Arduino core to build touchline_hub.ino on a PC for its host test.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

typedef uint8_t byte;
enum { LOW = 0, HIGH = 1, INPUT = 0, OUTPUT = 1 };

unsigned long millis();
inline void pinMode(uint8_t, uint8_t) {}
inline void digitalWrite(uint8_t, uint8_t) {}

// The USB serial port: what the sketch prints goes to stdout; what the host sends is queued by the harness.
class HostSerial {
 public:
  std::string input;
  void begin(unsigned long) {}
  explicit operator bool() const { return true; }
  int available() const { return static_cast<int>(input.size()); }
  int read() {
    if (input.empty()) return -1;
    int c = static_cast<unsigned char>(input[0]);
    input.erase(0, 1);
    return c;
  }
  void print(const char *text) { std::fputs(text, stdout); }
  void print(char c) { std::fputc(c, stdout); }
};
extern HostSerial Serial;
