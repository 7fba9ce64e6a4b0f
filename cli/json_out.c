#include "cli/json_out.h"

#include <stdio.h>

json_t *json_count(int n)
{
    return n < 0 ? json_null() : json_integer(n);
}

int json_append(json_t **array, json_t *item)
{
    if (*array && item && json_array_append_new(*array, item) == 0)
        return 0;
    if (!*array || !item)
        json_decref(item); /* json_array_append_new frees item itself when it fails */
    json_decref(*array);
    *array = NULL;
    return -1;
}

json_t *json_with(json_t *object, const char *key, json_t *value)
{
    if (object && value && json_object_set_new(object, key, value) == 0)
        return object;
    if (!object || !value)
        json_decref(value); /* json_object_set_new frees value itself when it fails */
    json_decref(object);
    return NULL;
}

int json_print(const char *cmd, json_t *value)
{
    /* flags 0: one line, with a space after each ':' and ',' */
    int status = value ? json_dumpf(value, stdout, 0) : -1;

    json_decref(value);
    if (status < 0 || putchar('\n') == EOF) {
        fprintf(stderr, "damero %s: out of memory writing the JSON\n", cmd);
        return -1;
    }
    return 0;
}
