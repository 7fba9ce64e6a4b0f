/* Arrays that grow: the one way the code makes room for more items. */
#ifndef DAMERO_ARRAY_H
#define DAMERO_ARRAY_H

#include <stddef.h>

/* Makes room for at least `needed` items of item_size bytes in a growing array.
 *
 * array:    the address of the array's pointer (e.g. &list->items; NULL while empty).
 * capacity: its room in items, updated. It at least doubles, so that adding items one at
 *           a time costs linear time in all; items added are zeroed.
 *
 * Returns 0, or -1 when memory runs out (the array and capacity are then unchanged). */
int array_reserve(void *array, size_t *capacity, size_t needed, size_t item_size);

#endif
