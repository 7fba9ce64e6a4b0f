/* Run-time choice of instruction set extensions for the hot code.
 *
 * A portable build targets the baseline of the architecture, so that the library and the
 * command run on any processor of it. On x86-64 that baseline lacks popcnt (counting the
 * squares of a set: a library call instead of one instruction) and the BMI1/BMI2 bit
 * instructions (pdep deposits bits into the squares of a mask, which decodes an index).
 * The few functions where these matter are therefore compiled twice: NAME_fast for
 * processors with popcnt, BMI1 and BMI2, and NAME_baseline; the public function calls one
 * of them, chosen once at start-up.
 *
 * Setting the environment variable DAMERO_CPU=baseline forces the baseline code on any
 * processor (the tests check that it gives the same results). Elsewhere than x86-64 only
 * the baseline exists. */
#ifndef DAMERO_CPU_H
#define DAMERO_CPU_H

#include <stdbool.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define CPU_DISPATCH 1
#define CPU_FAST_TARGET __attribute__((target("popcnt,bmi,bmi2")))
#else
#define CPU_DISPATCH 0
#endif

/* Whether the _fast functions are used: the processor has their instructions and
 * DAMERO_CPU does not say "baseline". Decided before main() runs, read-only afterwards
 * (thread-safe); read inline, since every call of a dispatched function asks. */
extern bool cpu_fast_chosen;
static inline bool cpu_use_fast(void) { return cpu_fast_chosen; }

/* The name of the code in use: "popcnt+bmi2" or "baseline". */
const char *cpu_level_name(void);

#define CPU_UNPAREN_(...) __VA_ARGS__

/* Defines NAME_baseline(PARAMS) and, where there is a choice, NAME_fast(PARAMS), both
 * returning NAME_body(ARGS, fast) with `fast` false or true. NAME_body must be
 * always-inline so that each copy is compiled for its own instruction set; it passes
 * `fast` on to the helpers that use an instruction the compiler cannot choose by itself
 * (deposit, in format/index.c). PARAMS and ARGS are parenthesised lists. */
#if CPU_DISPATCH
#define CPU_CLONES(ret, name, params, args)                                             \
    static ret name##_baseline params { return name##_body(CPU_UNPAREN_ args, false); } \
    CPU_FAST_TARGET static ret name##_fast params { return name##_body(CPU_UNPAREN_ args, true); }
#define CPU_CHOOSE(name) (cpu_use_fast() ? name##_fast : name##_baseline)
#else
#define CPU_CLONES(ret, name, params, args) \
    static ret name##_baseline params { return name##_body(CPU_UNPAREN_ args, false); }
#define CPU_CHOOSE(name) name##_baseline
#endif

#endif
