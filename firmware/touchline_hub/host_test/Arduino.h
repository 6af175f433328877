// Just enough of the Arduino core to build touchline_hub.ino on a PC for its host test.
// Time is simulated in microseconds: delay() and the stand-in MFRC522 library charge what they would take on a
// board, so the host test sees the sketch's real sweep time.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

typedef uint8_t byte;
enum { LOW = 0, HIGH = 1, INPUT = 0, OUTPUT = 1 };

extern unsigned long long now_us;
inline unsigned long millis() { return static_cast<unsigned long>(now_us / 1000); }
inline unsigned long micros() { return static_cast<unsigned long>(now_us); }
inline void delay(unsigned long ms) { now_us += 1000ULL * ms; }
inline void delayMicroseconds(unsigned int us) { now_us += us; }

// The pins: an output drives its line; an input leaves it floating, and a floating line reads LOW (a reset line
// with the board's pull-down, or no pull-up at all).
struct PinState {
  uint8_t mode = INPUT;
  uint8_t level = LOW;
};
extern std::map<uint8_t, PinState> pins;
void lineChanged(uint8_t pin);  // the harness tells the simulated chips on that line
inline void pinMode(uint8_t pin, uint8_t mode) {
  pins[pin].mode = mode;
  lineChanged(pin);
}
inline void digitalWrite(uint8_t pin, uint8_t value) {
  pins[pin].level = value ? HIGH : LOW;
  lineChanged(pin);
}
inline int digitalRead(uint8_t pin) {
  const PinState &p = pins[pin];
  return p.mode == OUTPUT ? static_cast<int>(p.level) : static_cast<int>(LOW);
}
inline uint8_t lineLevel(uint8_t pin) { return digitalRead(pin); }

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
  void print(const char *text) {
    while (*text) print(*text++);
  }
  // Each character goes to stdout; each finished line goes to stderr too, after the time it was sent at.
  void print(char c) {
    std::fputc(c, stdout);
    if (c == '\n') {
      std::fprintf(stderr, "%llu %s\n", now_us, line_.c_str());
      line_.clear();
    } else if (c != '\r') {
      line_ += c;
    }
  }

 private:
  std::string line_;
};
extern HostSerial Serial;
