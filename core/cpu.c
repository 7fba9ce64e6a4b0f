#include "core/cpu.h"

#include <stdlib.h>
#include <string.h>

bool cpu_fast_chosen;

/* A constructor, so that the choice is made once, before any thread can ask. */
__attribute__((constructor)) static void cpu_choose(void)
{
#if CPU_DISPATCH
    const char *forced = getenv("DAMERO_CPU");
    __builtin_cpu_init();
    cpu_fast_chosen = __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2") && !(forced && strcmp(forced, "baseline") == 0);
#endif
}

const char *cpu_level_name(void) { return cpu_fast_chosen ? "popcnt+bmi2" : "baseline"; }
