/* Division by a number fixed in advance, as a multiplication and a shift.
 *
 * The index and the solver divide by the same few numbers (the king placements of a men
 * configuration, the positions a level holds per configuration) for every position they
 * number or decode, and a processor's 64-bit division takes 15 to 90 cycles where a
 * multiplication takes 3. The method is Granlund and Montgomery's ("Division by
 * invariant integers using multiplication", 1994): with l the least number such that
 * d <= 2^l and m = ceil(2^(62 + l) / d), floor(n m / 2^(62 + l)) = floor(n / d) for
 * every n below 2^62, because 0 <= m d - 2^(62 + l) < d <= 2^l. m is below 2^63 + 1, so
 * it fits in 64 bits, and n m in 128. Indices stay far below 2^62. */
#ifndef DAMERO_DIVIDER_H
#define DAMERO_DIVIDER_H

#include <stdint.h>

#define DIVIDER_NUMERATOR_BITS 62

struct divider {
    uint64_t d;     /* the divisor, at least 1 */
    uint64_t magic; /* m */
    int shift;      /* 62 + l */
};

static inline struct divider divider_of(uint64_t d)
{
    int l = 0;
    while (l < 64 && ((unsigned __int128)1 << l) < d)
        l++;
    int shift = DIVIDER_NUMERATOR_BITS + l;
    unsigned __int128 power = (unsigned __int128)1 << shift;
    return (struct divider){ d, (uint64_t)((power + d - 1) / d), shift };
}

/* n / d, for n below 2^62. */
static inline uint64_t divide(uint64_t n, struct divider by)
{
    return (uint64_t)(((unsigned __int128)n * by.magic) >> by.shift);
}

/* n % d, for n below 2^62. */
static inline uint64_t remainder_of(uint64_t n, struct divider by)
{
    return n - divide(n, by) * by.d;
}

#endif
