/* Crafted table files: a table rewritten with one value changed and every checksum made
 * valid again, as someone crafting a file (not an accident) would. The checksums catch
 * damage; these files test what is checked past them. */
#ifndef DAMERO_CRAFT_UTIL_H
#define DAMERO_CRAFT_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "store/table_io.h"

/* values[side] (n values of 8 bits) widened to 16 bits in place of the old array. */
static inline int craft_widen(void *values[2], uint64_t n)
{
    for (int side = 0; side < 2; side++) {
        uint16_t *wide = malloc(n * 2 + 1);
        if (!wide)
            return -1;
        for (uint64_t i = 0; i < n; i++)
            wide[i] = ((uint8_t *)values[side])[i];
        free(values[side]);
        values[side] = wide;
    }
    return 0;
}

/* Rewrites the table at path with the value of position `index`, `side` to move, set to
 * `value` (the values widened to 16 bits when it needs them), checksums and all. Returns
 * 0, or -1 with a sentence in err. */
static inline int craft_value(const char *path, int side, uint64_t index, unsigned value,
                              char *err, size_t err_size)
{
    struct table_file_info info;
    void *values[2];
    int result = -1;
    if (table_file_read(path, &info, values, err, err_size) < 0)
        return -1;
    if (index >= info.positions || value > UINT16_MAX || (info.value_bits == 2 && value > 3))
        snprintf(err, err_size, "%s: no position %llu, or %u does not fit", path,
                 (unsigned long long)index, value);
    else if (value > UINT8_MAX && info.value_bits == 8 && craft_widen(values, info.positions) < 0)
        snprintf(err, err_size, "out of memory");
    else {
        if (value > UINT8_MAX)
            info.value_bits = 16;
        if (info.value_bits == 16)
            ((uint16_t *)values[side])[index] = (uint16_t)value;
        else
            ((uint8_t *)values[side])[index] = (uint8_t)value;
        result = table_file_write(path, &info, (const void *const *)values, err, err_size);
    }
    free(values[0]);
    free(values[1]);
    return result;
}

#endif
