/* The time damero_open takes: it lists the variant's folder and reads no table file, so
 * it should not grow with the tables' size, only (slightly) with their number.
 *
 * Usage: bench_open DIR VARIANT [TIMES]. Opens and closes the tables TIMES times (default
 * 100) and prints the mean time of one damero_open + damero_close. */
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "probe/damero.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_open DIR VARIANT [TIMES]\n");
        return 2;
    }
    int times = argc > 3 ? atoi(argv[3]) : 100;
    damero_tb *tb;
    double start = seconds_now();
    for (int k = 0; k < times; k++) {
        if (damero_open(argv[2], argv[1], 64 << 20, &tb) != DAMERO_OK) {
            fprintf(stderr, "bench_open: %s\n", damero_error_message());
            return 1;
        }
        damero_close(tb);
    }
    double each = (seconds_now() - start) / (times > 0 ? times : 1);
    if (damero_open(argv[2], argv[1], 64 << 20, &tb) != DAMERO_OK)
        return 1;
    printf("damero_open + damero_close of %s/%s (largest material %d pieces): %.3f ms\n",
           argv[1], argv[2], damero_max_pieces(tb), each * 1e3);
    damero_close(tb);
    return 0;
}
