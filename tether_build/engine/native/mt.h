// CPython's random.Random, draw for draw: the Mersenne Twister MT19937 with the seeding of
// random.seed(int) (init_by_array over the 32-bit words of |seed|), random(), getrandbits,
// and the library's _randbelow / randint / shuffle / choice / choices(cum_weights=...).
#pragma once
#include <cstdint>
#include <vector>

namespace tn {

struct MT {
  uint32_t mt[624];
  int mti = 625;

  void init_genrand(uint32_t s) {
    mt[0] = s;
    for (mti = 1; mti < 624; mti++)
      mt[mti] = 1812433253U * (mt[mti - 1] ^ (mt[mti - 1] >> 30)) + (uint32_t)mti;
  }
  void init_by_array(const uint32_t* key, size_t len) {
    init_genrand(19650218U);
    size_t i = 1, j = 0, k = 624 > len ? 624 : len;
    for (; k; k--) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= len) j = 0;
    }
    for (k = 623; k; k--) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000U;
  }
  // random.Random(n) for an int n whose magnitude fits 64 bits (negative seeds use |n|)
  void seed_mag(uint64_t mag) {
    uint32_t key[2];
    size_t len;
    if (mag >> 32) { key[0] = (uint32_t)mag; key[1] = (uint32_t)(mag >> 32); len = 2; }
    else { key[0] = (uint32_t)mag; len = 1; }
    init_by_array(key, len);
  }
  void seed(int64_t n) {
    uint64_t mag = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    seed_mag(mag);
  }
  uint32_t genrand() {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (mti >= 624) {
      int kk;
      for (kk = 0; kk < 624 - 397; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
      }
      for (; kk < 623; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
      }
      y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
      mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
      mti = 0;
    }
    y = mt[mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
  }
  double random() {
    uint32_t a = genrand() >> 5, b = genrand() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
  // getrandbits(k), 1 <= k <= 32
  uint32_t bits(int k) { return genrand() >> (32 - k); }
  uint64_t bits64() {
    uint64_t lo = genrand();
    uint64_t hi = genrand();
    return lo | (hi << 32);
  }
  static int bit_length(uint64_t n) {
    int k = 0;
    while (n) { k++; n >>= 1; }
    return k;
  }
  // _randbelow_with_getrandbits(n), n > 0 (n < 2**32)
  int64_t below(int64_t n) {
    int k = bit_length((uint64_t)n);
    uint32_t r = bits(k);
    while ((int64_t)r >= n) r = bits(k);
    return (int64_t)r;
  }
  int64_t randint(int64_t a, int64_t b) { return a + below(b - a + 1); }
  template <class T>
  void shuffle(std::vector<T>& x) {
    for (size_t i = x.size() ? x.size() - 1 : 0; i >= 1; --i) {
      size_t j = (size_t)below((int64_t)i + 1);
      T t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
  template <class T>
  const T& choice(const std::vector<T>& x) { return x[(size_t)below((int64_t)x.size())]; }
};

}  // namespace tn
