/* Text encodings of PDN files: UTF-8, as damero writes, or Windows-1251, in which many
 * Russian files were saved (their tags and names in Cyrillic). */
#ifndef DAMERO_CLI_TEXT_ENCODING_H
#define DAMERO_CLI_TEXT_ENCODING_H

#include <stdbool.h>
#include <stddef.h>

/* Whether text[0..size) is valid UTF-8 (plain ASCII is). */
bool utf8_valid(const char *text, size_t size);

/* text[0..size) read as Windows-1251, in UTF-8: a new 0-terminated string (free it), its
 * length in *out_size; NULL when memory runs out. */
char *utf8_from_windows1251(const char *text, size_t size, size_t *out_size);

#endif
