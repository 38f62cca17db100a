// Prints this machine's single-thread streaming read bandwidth (best of 5, 1 GiB buffer).
#include <cstdio>

#include "kernels/common/read_bandwidth.h"

int main() {
  std::printf("read bandwidth, 1 thread: %.2f GB/s\n",
              cpubrrr::MeasureReadBandwidthGBs(size_t{1} << 30, 5));
  return 0;
}
