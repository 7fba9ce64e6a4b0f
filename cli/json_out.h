/* JSON output through jansson, which escapes every string: what the --json options of
 * the commands and the API of `damero serve` write. Objects are built with json_pack,
 * which fails whole (NULL) when memory runs out, so that nothing half-built is printed. */
#ifndef DAMERO_CLI_JSON_OUT_H
#define DAMERO_CLI_JSON_OUT_H

#include <jansson.h>

/* n as a JSON number, or null when it is negative (a draw has no DTM or MTC). */
json_t *json_count(int n);

/* Appends item (stolen) to array. Returns 0, or -1 when either is NULL or memory runs out
 * (both are then freed, and *array set to NULL). */
int json_append(json_t **array, json_t *item);

/* Sets key of object to value (stolen) and returns object; when either is NULL or memory
 * runs out, frees both and returns NULL. */
json_t *json_with(json_t *object, const char *key, json_t *value);

/* Prints value on one line of stdout, as damero has always written it ("key": value,
 * ...; keys in the order they were set), with a newline, and frees it. Returns 0, or -1
 * after printing "damero CMD: out of memory" when value is NULL or cannot be written. */
int json_print(const char *cmd, json_t *value);

#endif
