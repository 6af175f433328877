// The SPI bus of the host test: nothing to set up.
#pragma once
struct HostSPI {
  void begin() {}
};
extern HostSPI SPI;
