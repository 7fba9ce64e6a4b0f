#include "core/array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_CAPACITY 16

int array_reserve(void *array, size_t *capacity, size_t needed, size_t item_size)
{
    if (needed <= *capacity)
        return 0;
    size_t grown = *capacity < FIRST_CAPACITY ? FIRST_CAPACITY : 2 * *capacity;
    if (grown < needed)
        grown = needed;
    if (grown > SIZE_MAX / item_size)
        return -1;
    /* the pointer is read and written through memcpy: `array` may point at a pointer of
     * any object type */
    void *items;
    memcpy(&items, array, sizeof items);
    void *more = realloc(items, grown * item_size);
    if (!more)
        return -1;
    memset((char *)more + *capacity * item_size, 0, (grown - *capacity) * item_size);
    memcpy(array, &more, sizeof more);
    *capacity = grown;
    return 0;
}
