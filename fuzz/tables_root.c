#include "fuzz/tables_root.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gen/build.h"

static char root[] = "/tmp/damero-fuzz-XXXXXX";

static void remove_root(void)
{
    char command[sizeof root + 16];
    snprintf(command, sizeof command, "rm -rf %s", root);
    if (system(command) != 0)
        fprintf(stderr, "damero fuzz: could not remove %s\n", root);
}

void enter_tables_root(const char *target)
{
    const struct variant *v = variant_by_name("russian");
    struct material wanted[64];
    struct build_options options = { 0 };
    struct tableset ts;
    char err[512], dir[sizeof root + 16];
    int n = 0;
    if (!mkdtemp(root) || chdir(root) != 0)
        abort();
    atexit(remove_root);
    for (int pieces = 2; pieces <= 3; pieces++)
        n += material_list(v, pieces, wanted + n, 64 - n);
    snprintf(dir, sizeof dir, "%s/tables/russian", root);
    tableset_init(&ts, v, dir);
    if (build_materials(&ts, wanted, n, &options, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", target, err);
        abort();
    }
    tableset_free(&ts);
}
