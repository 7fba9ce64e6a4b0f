/* The files of the web page (web/), compiled into the binary by cmake/embed_files.cmake:
 * `damero serve` answers with these and nothing else from the disk. */
#ifndef DAMERO_CLI_WEB_FILES_H
#define DAMERO_CLI_WEB_FILES_H

#include <stddef.h>

struct web_file {
    const char *path;          /* "/index.html" */
    const char *type;          /* its Content-Type */
    const unsigned char *data; /* size bytes, then a 0 */
    size_t size;
};

/* Ends with an entry whose path is NULL. */
extern const struct web_file web_files[];

#endif
