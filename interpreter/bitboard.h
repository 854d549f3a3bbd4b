// A set of board cells as a fixed number of 64-bit words. The word count is a template parameter
// chosen once when a game is loaded (1 word for boards up to 64 cells, more for larger ones), so
// the common case compiles to plain uint64_t arithmetic.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace troyka {

// The low 8 bits of `bits` spread out, bit j to bit 8j: one bit of eight cells onto the low bit of
// eight bytes, one byte per cell (a bit-sliced count turned into a count per cell).
inline std::uint64_t bits_to_bytes(std::uint64_t bits) {
#if defined(__BMI2__)
  return _pdep_u64(bits, 0x0101010101010101);
#else
  std::uint64_t bytes = 0;
  for (int bit = 0; bit < 8; ++bit) bytes |= ((bits >> bit) & 1) << (8 * bit);
  return bytes;
#endif
}

// The bits of `bits` under `mask`, packed into the low bits in their order (pext under BMI2): the
// cells of a line gathered from a board's word.
inline std::uint64_t gather_bits(std::uint64_t bits, std::uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(bits, mask);
#else
  std::uint64_t gathered = 0;
  for (int at = 0; mask; mask &= mask - 1, ++at) gathered |= ((bits >> std::countr_zero(mask)) & 1) << at;
  return gathered;
#endif
}

template <int Words>
struct Bitboard {
  std::array<std::uint64_t, Words> word{};

  static constexpr int kBits = 64 * Words;

  static Bitboard single(int cell) {
    Bitboard b;
    b.set(cell);
    return b;
  }

  void set(int cell) { word[cell >> 6] |= std::uint64_t{1} << (cell & 63); }
  void reset(int cell) { word[cell >> 6] &= ~(std::uint64_t{1} << (cell & 63)); }
  bool test(int cell) const { return (word[cell >> 6] >> (cell & 63)) & 1; }

  bool any() const {
    std::uint64_t all = 0;
    for (const std::uint64_t w : word) all |= w;
    return all != 0;
  }
  int count() const {
    int total = 0;
    for (const std::uint64_t w : word) total += std::popcount(w);
    return total;
  }
  // The lowest cell in the set; the set must not be empty.
  int lowest() const {
    for (int i = 0; i < Words; ++i)
      if (word[i]) return i * 64 + std::countr_zero(word[i]);
    return -1;
  }
  // The highest cell in the set; the set must not be empty.
  int highest() const {
    for (int i = Words - 1; i >= 0; --i)
      if (word[i]) return i * 64 + 63 - std::countl_zero(word[i]);
    return -1;
  }
  // Removes and returns the lowest cell; the set must not be empty.
  int pop_lowest() {
    for (int i = 0; i < Words; ++i)
      if (word[i]) {
        const int bit = std::countr_zero(word[i]);
        word[i] &= word[i] - 1;
        return i * 64 + bit;
      }
    return -1;
  }
  // Calls visit(cell) for each cell of the set, from the lowest: a word at a time, so that the
  // set's words stay in registers (pop_lowest on a copy goes through memory when Words > 1), and
  // always inlined, which that needs (GCC left a call in Amazons' count of moves, the hottest loop).
  template <typename Visit>
  [[gnu::always_inline]] void for_each(Visit&& visit) const {
    for (int i = 0; i < Words; ++i)
      for (std::uint64_t bits = word[i]; bits; bits &= bits - 1) visit(i * 64 + std::countr_zero(bits));
  }
  // The n-th lowest cell (n from 0); n must be below count().
  int nth(int n) const {
    for (int i = 0; i < Words; ++i) {
      const int here = std::popcount(word[i]);
      if (n < here) return i * 64 + nth_in_word(word[i], n);
      n -= here;
    }
    return -1;
  }

  // Every cell moved `left` places up (left > 0) or `right` places down; one of them is zero.
  // Storing both keeps the hot loop free of a branch on the sign.
  Bitboard shifted(int left, int right) const {
    if constexpr (Words == 1) {
      return Bitboard{{(word[0] << left) >> right}};
    } else {
      return left ? shift_up(left) : shift_down(right);
    }
  }

  friend Bitboard operator&(Bitboard a, const Bitboard& b) {
    for (int i = 0; i < Words; ++i) a.word[i] &= b.word[i];
    return a;
  }
  friend Bitboard operator|(Bitboard a, const Bitboard& b) {
    for (int i = 0; i < Words; ++i) a.word[i] |= b.word[i];
    return a;
  }
  friend Bitboard operator^(Bitboard a, const Bitboard& b) {
    for (int i = 0; i < Words; ++i) a.word[i] ^= b.word[i];
    return a;
  }
  // Cells of a not in b.
  friend Bitboard operator-(Bitboard a, const Bitboard& b) {
    for (int i = 0; i < Words; ++i) a.word[i] &= ~b.word[i];
    return a;
  }
  Bitboard& operator&=(const Bitboard& b) { return *this = *this & b; }
  Bitboard& operator|=(const Bitboard& b) { return *this = *this | b; }
  Bitboard& operator^=(const Bitboard& b) { return *this = *this ^ b; }
  bool operator==(const Bitboard&) const = default;

 private:
  static int nth_in_word(std::uint64_t w, int n) {
#if defined(__BMI2__)
    return std::countr_zero(_pdep_u64(std::uint64_t{1} << n, w));  // deposit bit n onto w's n-th set bit
#else
    for (; n > 0; --n) w &= w - 1;
    return std::countr_zero(w);
#endif
  }
  // Shifts by less than a word (every step on a board up to 26 wide) carry one neighbour word in;
  // longer ones (long leaps and slides on big boards) also move whole words.
  Bitboard shift_up(int bits) const {
    Bitboard out;
    if (bits < 64) {
      for (int i = Words - 1; i > 0; --i) out.word[i] = (word[i] << bits) | (word[i - 1] >> (63 - bits) >> 1);
      out.word[0] = word[0] << bits;
      return out;
    }
    const int words = bits >> 6, rest = bits & 63;
    for (int i = Words - 1; i >= words; --i) {
      std::uint64_t w = word[i - words] << rest;
      if (rest && i - words - 1 >= 0) w |= word[i - words - 1] >> (64 - rest);
      out.word[i] = w;
    }
    return out;
  }
  Bitboard shift_down(int bits) const {
    Bitboard out;
    if (bits < 64) {
      for (int i = 0; i + 1 < Words; ++i) out.word[i] = (word[i] >> bits) | (word[i + 1] << (63 - bits) << 1);
      out.word[Words - 1] = word[Words - 1] >> bits;
      return out;
    }
    const int words = bits >> 6, rest = bits & 63;
    for (int i = 0; i + words < Words; ++i) {
      std::uint64_t w = word[i + words] >> rest;
      if (rest && i + words + 1 < Words) w |= word[i + words + 1] << (64 - rest);
      out.word[i] = w;
    }
    return out;
  }
};

}  // namespace troyka
