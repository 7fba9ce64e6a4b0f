#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/variant.h"
#include "probe/damero.h"

int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "damero %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'damero %s --help')\n", cmd);
    return EXIT_USAGE;
}

int option_error(const char *cmd, int opt, char *const *argv)
{
    if (opt == ':')
        return usage_error(cmd, "%s needs a value", argv[optind - 1]);
    return usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

const char *parse_variant_name(const char *cmd, const char *name)
{
    const char *known;
    for (int k = 0; name && (known = damero_variant_name(k)); k++)
        if (strcmp(known, name) == 0)
            return known;
    fprintf(stderr, "damero %s: unknown variant '%s'; the variants are:", cmd, name ? name : "");
    for (int k = 0; (known = damero_variant_name(k)); k++)
        fprintf(stderr, " %s", known);
    fprintf(stderr, "\n");
    return NULL;
}

const struct variant *parse_variant(const char *cmd, const char *name)
{
    const char *known = parse_variant_name(cmd, name);
    return known ? variant_by_name(known) : NULL;
}

const char *parse_path(const char *cmd, const char *option, const char *text)
{
    if (text[0] == '\0') {
        usage_error(cmd, "%s needs a name, not an empty one ('.' is this directory)", option);
        return NULL;
    }
    return text;
}

int parse_int(const char *cmd, const char *option, const char *text, int min, int max,
              int *value)
{
    char *end;
    long n;

    errno = 0;
    n = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || n < min || n > max) {
        usage_error(cmd, "%s takes a whole number from %d to %d, not '%s'", option, min, max,
                    text);
        return -1;
    }
    *value = (int)n;
    return 0;
}

int parse_cache(const char *cmd, const char *text, size_t *bytes)
{
    int mb;

    if (parse_int(cmd, "--cache", text, 0, 1 << 20, &mb) < 0)
        return -1;
    *bytes = (size_t)mb << 20;
    return 0;
}

const char *default_table_dir(void)
{
    const char *dir = getenv("DAMERO_TABLES");
    return dir && *dir ? dir : "tables";
}
