/* craft_table FILE SIDE INDEX VALUE: rewrites the table FILE with the value of position
 * INDEX (SIDE 0: White to move, 1: Black) set to VALUE, every checksum valid: a crafted
 * file for the command-line tests (tests/craft_util.h). */
#include <stdio.h>
#include <stdlib.h>

#include "tests/craft_util.h"

int main(int argc, char **argv)
{
    char err[4352];
    if (argc != 5) {
        fprintf(stderr, "usage: craft_table FILE SIDE INDEX VALUE\n");
        return 2;
    }
    if (craft_value(argv[1], atoi(argv[2]) != 0, strtoull(argv[3], NULL, 10),
                    (unsigned)strtoul(argv[4], NULL, 10), err, sizeof err) < 0) {
        fprintf(stderr, "craft_table: %s\n", err);
        return 1;
    }
    return 0;
}
