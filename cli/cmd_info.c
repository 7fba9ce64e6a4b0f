/* damero info: what a table holds, counted over every legal position. */
#include <inttypes.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/api_json.h"
#include "cli/commands.h"
#include "cli/json_out.h"
#include "cli/options.h"
#include "core/notation.h"
#include "rules/rule_search.h"
#include "store/table_io.h"
#include "store/tableset.h"

static const char help[] =
    "usage: damero info [--json] FILE\n"
    "       damero info [--json] --variant NAME [--dir DIR] MATERIAL\n"
    "\n"
    "Describes the table of one material: FILE is any of its files (MATERIAL.wdl, .dtm or\n"
    ".mtc); the .dtm and .mtc files beside it are read and checked. With --variant, the\n"
    "table is named by its MATERIAL instead (e.g. KKMvK, either side first) and its files\n"
    "are found in DIR/NAME/, as the other commands find them; a missing table is named with\n"
    "the 'damero gen' command that builds it.\n"
    "\n"
    "For each side to move: positions, wins, draws and losses, the longest win in plies\n"
    "(DTM) with an example, the longest MTC, and the DTM histogram. Counts cover every legal\n"
    "position, including the symmetric images that a kings-only table stores once. A table\n"
    "built without DTM ('damero gen --metrics wdl' or 'wdl+mtc') is described without it,\n"
    "and with its longest MTC where its .mtc file is there.\n"
    "\n"
    "A rule table (MATERIAL.ru0 for reading 1, .ru1 for reading 2, built by 'damero gen\n"
    "--rules') is described the same way with the values under the variant's move-limit\n"
    "rules, in each position's fresh state (every count that applies there just started),\n"
    "under its reading (as 'damero probe --reading' numbers them); it adds the\n"
    "cursed wins (won without the rules, drawn under them) and blessed losses (the same for\n"
    "the loser). The DTM figures are then plies to the end of the game under the rules.\n"
    "A distance table (MATERIAL.rz0 or .rz1, beside the rule table) is checked and described\n"
    "with its rule table, adding its longest distance to zeroing and how many won or lost\n"
    "states have one (JSON: zeroing_longest, zeroing_known, zeroing_unknown).\n"
    "\n"
    "  --variant NAME  the rules of MATERIAL (see 'damero --help' for the list)\n"
    "  --dir DIR       with --variant, the table root, as given to 'damero gen --dir'\n"
    "                  (default: " DEFAULT_DIR_HELP ")\n"
    "  --json          one JSON object: variant, material, positions (both sides to move),\n"
    "                  and for \"white\" and \"black\" (to move): positions, wins, draws,\n"
    "                  losses, max_dtm, max_dtm_fen, dtm_histogram, max_mtc. The histogram\n"
    "                  maps plies to positions: a win in d plies is \"d\", a loss in d plies\n"
    "                  is \"-d\" (\"0\" is the end of the game: a loss, or a win in the\n"
    "                  giveaway variants). max_dtm and max_mtc are in plies, null when there\n"
    "                  is no win (no decisive position) or the table has no such file\n"
    "                  (max_dtm_fen and dtm_histogram are then null too). A rule table's\n"
    "                  object adds rules_reading (1 or 2) and, for each side, cursed_wins\n"
    "                  and blessed_losses; its max_mtc is null. A table that cannot be\n"
    "                  read gives {file, error} instead ({material, error} with --variant).\n";

#define HISTOGRAM_SIZE (DTM_MAX_PLIES + 1)

struct side_stats {
    uint64_t positions, wins, draws, losses;
    int max_dtm, max_mtc; /* -1: none */
    uint64_t max_dtm_index;
    uint64_t *win_plies, *loss_plies; /* histograms, HISTOGRAM_SIZE entries */
    uint64_t cursed, blessed; /* of a rule table: wins and losses the rules make draws */
    bool has_dtm; /* false for a table built without DTM: no distances to mate */
};

/* What a table described has beside its WDL. */
struct table_metrics {
    bool dtm, mtc;
};

/* The statistics of t's values for one side to move, or of its values under the rules
 * (rules: a rule table's values, as DTM codes; NULL for t's own). Without DTM, t's DTM
 * codes stand for wins and losses alone (dtm_of_wdl): no distance is counted. */
static int count_side(const struct table *t, struct table_metrics has, dtm_t *const *rules,
                      enum side side, struct side_stats *st)
{
    st->win_plies = calloc(HISTOGRAM_SIZE, sizeof *st->win_plies);
    st->loss_plies = calloc(HISTOGRAM_SIZE, sizeof *st->loss_plies);
    st->max_dtm = st->max_mtc = -1;
    st->has_dtm = has.dtm;
    if (!st->win_plies || !st->loss_plies)
        return -1;
    for (uint64_t i = 0; i < t->ix.size; i++) {
        dtm_t v = rules ? rules[side][i] : t->dtm[side][i];
        uint64_t weight = 1;
        if (t->ix.reduced) {
            struct position p;
            index_position(&t->ix, i, side, &p);
            weight = (uint64_t)index_class_size(&t->ix, &p);
        }
        st->positions += weight;
        if (v == DTM_DRAW) {
            st->draws += weight;
            st->cursed += rules && dtm_is_win(t->dtm[side][i]) ? weight : 0;
            st->blessed += rules && dtm_is_loss(t->dtm[side][i]) ? weight : 0;
            continue;
        }
        int plies = dtm_plies(v), mtc = has.mtc ? mtc_plies(t->mtc[side][i]) : -1;
        if (dtm_is_win(v)) {
            st->wins += weight;
            st->win_plies[plies] += has.dtm ? weight : 0;
            if (has.dtm && plies > st->max_dtm) {
                st->max_dtm = plies;
                st->max_dtm_index = i;
            }
        } else {
            st->losses += weight;
            st->loss_plies[plies] += has.dtm ? weight : 0;
        }
        if (!rules && mtc > st->max_mtc)
            st->max_mtc = mtc;
    }
    return 0;
}

/* The DTM histogram: "d" for a win in d plies, then "-d" for a loss in d ("0": the end). */
static json_t *histogram_json(const struct side_stats *st)
{
    const uint64_t *const counts[2] = { st->win_plies, st->loss_plies };
    json_t *histogram = json_object();
    bool failed = !histogram;
    char key[16];

    for (int loss = 0; loss < 2; loss++)
        for (int d = 0; d < HISTOGRAM_SIZE; d++)
            if (counts[loss][d]) {
                snprintf(key, sizeof key, "%s%d", loss && d ? "-" : "", d);
                failed |= json_object_set_new(histogram, key,
                                              json_integer((json_int_t)counts[loss][d])) < 0;
            }
    if (failed) {
        json_decref(histogram);
        return NULL;
    }
    return histogram;
}

static json_t *side_json(const struct variant *v, const struct table *t, enum side side,
                         const struct side_stats *st, bool rules)
{
    char fen[FEN_SIZE] = "";
    json_t *longest = json_null();

    if (st->max_dtm >= 0) {
        struct position p;
        index_position(&t->ix, st->max_dtm_index, side, &p);
        fen_print(v, &p, fen);
        longest = json_string(fen);
    }
    json_t *out = json_pack("{s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "positions",
                             (json_int_t)st->positions, "wins", (json_int_t)st->wins, "draws",
                             (json_int_t)st->draws, "losses", (json_int_t)st->losses,
                             "max_dtm", json_count(st->max_dtm), "max_dtm_fen", longest,
                             "dtm_histogram", st->has_dtm ? histogram_json(st) : json_null(),
                             "max_mtc", json_count(st->max_mtc));
    if (out && rules &&
        (json_object_set_new(out, "cursed_wins", json_integer((json_int_t)st->cursed)) < 0 ||
         json_object_set_new(out, "blessed_losses", json_integer((json_int_t)st->blessed)) < 0)) {
        json_decref(out);
        return NULL;
    }
    return out;
}

static void print_text_side(const struct variant *v, const struct table *t, enum side side,
                            const struct side_stats *st, bool rules)
{
    printf("\n%s to move\n", side == WHITE ? "White" : "Black");
    printf("  positions  %14" PRIu64 "\n", st->positions);
    printf("  wins       %14" PRIu64 "\n", st->wins);
    printf("  draws      %14" PRIu64 "\n", st->draws);
    printf("  losses     %14" PRIu64 "\n", st->losses);
    if (rules) {
        printf("  cursed wins    %10" PRIu64 "  (won without the rules, drawn under them)\n",
               st->cursed);
        printf("  blessed losses %10" PRIu64 "  (lost without the rules, drawn under them)\n",
               st->blessed);
    }
    if (st->max_dtm >= 0) {
        struct position p;
        char fen[FEN_SIZE];
        index_position(&t->ix, st->max_dtm_index, side, &p);
        fen_print(v, &p, fen);
        printf("  longest win: %d plies (DTM), e.g. %s\n", st->max_dtm, fen);
    }
    if (st->max_mtc >= 0)
        printf("  longest MTC: %d plies\n", st->max_mtc);
    if (!st->has_dtm) {
        printf("  no DTM: the table was built without it\n");
        return;
    }
    printf("  DTM (plies)    positions\n");
    for (int d = 0; d < HISTOGRAM_SIZE; d++)
        if (st->win_plies[d])
            printf("  win  %4d  %14" PRIu64 "\n", d, st->win_plies[d]);
    for (int d = 0; d < HISTOGRAM_SIZE; d++)
        if (st->loss_plies[d])
            printf("  loss %4d  %14" PRIu64 "\n", d, st->loss_plies[d]);
}

/* Checks that FILE is where and what its header says: named MATERIAL.SUFFIX after its
 * own material and metric, and, when its folder is named after a variant, in the folder of
 * its own variant (so that a table copied to the wrong place is blamed, not its intact
 * siblings). */
static int check_place(const char *file, const struct table_file_info *info, char *err,
                       size_t err_size)
{
    char copy[4096], name[TABLE_NAME_SIZE + 8];
    snprintf(name, sizeof name, "%s%s", info->material, table_metric_suffix(info->metric));
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    if (strcmp(base, name) != 0) {
        snprintf(err, err_size, "%s holds the table %s of %s, not what its name says: rename "
                 "it %s", file, name, info->variant, name);
        return -1;
    }
    snprintf(copy, sizeof copy, "%s", file);
    const char *folder = basename(dirname(copy));
    if (variant_by_name(folder) && strcmp(folder, info->variant) != 0) {
        snprintf(err, err_size, "%s is a table of %s, but lies in the folder of %s", file,
                 info->variant, folder);
        return -1;
    }
    return 0;
}

/* A rule table's values widened to DTM codes (values as table_file_read gives them,
 * freed here). Returns 0, or -1 when memory runs out. */
static int widen_rules(const struct table_file_info *info, void *values[2], dtm_t *out[2])
{
    for (int side = 0; side < 2; side++) {
        out[side] = malloc(info->positions * sizeof(dtm_t) + 1);
        for (uint64_t i = 0; out[side] && i < info->positions; i++)
            out[side][i] = info->value_bits == 16 ? ((const uint16_t *)values[side])[i]
                                                  : ((const uint8_t *)values[side])[i];
        free(values[side]);
    }
    return out[0] && out[1] ? 0 : -1;
}

/* What a distance table (.rz0, .rz1) holds: its longest distance to zeroing, and the
 * won or lost fresh states it has none for (where a "win within" count runs, the
 * generator stores one only where its search knows it). */
struct zeroing_summary {
    bool is;
    int longest;
    uint64_t unknown, known;
};

static void summarize_zeroing(const struct table_file_info *info, void *values[2],
                              dtm_t *const rules[2], struct zeroing_summary *z)
{
    z->is = true;
    for (int side = 0; side < 2; side++) {
        for (uint64_t i = 0; i < info->positions; i++) {
            int stored = info->value_bits == 16 ? ((const uint16_t *)values[side])[i]
                                                : ((const uint8_t *)values[side])[i];
            int dtz = rule_dtz_of_stored(rules[side][i], stored);
            if (rules[side][i] == DTM_DRAW)
                continue;
            z->unknown += dtz == RULE_DTZ_UNKNOWN;
            z->known += dtz != RULE_DTZ_UNKNOWN;
            if (dtz > z->longest)
                z->longest = dtz;
        }
        free(values[side]);
    }
}

/* Opens the table FILE belongs to, reading and checking FILE whole (so that damage in it
 * is reported even when the statistics come from its .dtm and .mtc siblings). When FILE
 * is a rule table, or the distance table beside one, the rule table's values are put in
 * rules[] (else NULL) and its reading in *reading (1 or 2, else 0); a distance table's
 * summary goes to *z. */
static const struct table *open_table(const char *file, struct tableset *ts, char *dir,
                                      size_t dir_size, dtm_t *rules[2], int *reading,
                                      struct zeroing_summary *z, char *err, size_t err_size)
{
    void *zeroing[2] = { NULL, NULL };
    struct table_file_info zeroing_info = { 0 };
    struct table_file_info info;
    struct material m;
    const struct variant *v;
    const struct table *t;
    void *values[2];

    rules[0] = rules[1] = NULL;
    *reading = 0;
    if (table_file_read_info(file, &info, err, err_size) < 0 ||
        check_place(file, &info, err, err_size) < 0)
        return NULL;
    if (!(v = variant_by_name(info.variant))) {
        snprintf(err, err_size, "%s is a table of an unknown variant '%s'", file, info.variant);
        return NULL;
    }
    if (material_parse(v, info.material, &m, err, err_size) < 0)
        return NULL;
    snprintf(dir, dir_size, "%s", file);
    tableset_init(ts, v, dirname(dir));
    /* a table built without DTM (--metrics wdl or wdl+mtc) is described without it, with
     * its MTC where its .mtc file is there */
    ts->wdl_only = tableset_built_without_dtm(ts, &m);
    ts->with_mtc = ts->wdl_only && tableset_has_file(ts, &m, METRIC_MTC);
    /* the .dtm and .mtc files are read whole and checked here, the others below */
    if (!(t = tableset_get(ts, &m, err, err_size)))
        return NULL;
    if (info.metric == METRIC_DTM || info.metric == METRIC_MTC)
        return t;
    if (tableset_read_file(ts, &m, info.metric, t->ix.size, &info, values, err, err_size) < 0) {
        tableset_free(ts);
        return NULL;
    }
    if (info.metric == METRIC_WDL) {
        free(values[0]);
        free(values[1]);
        return t;
    }
    *reading = info.metric == METRIC_RULES1 || info.metric == METRIC_ZEROING1 ? 2 : 1;
    if (info.metric == METRIC_ZEROING0 || info.metric == METRIC_ZEROING1) {
        zeroing_info = info;
        zeroing[0] = values[0], zeroing[1] = values[1];
        if (tableset_read_file(ts, &m, table_metric_rules(*reading - 1), t->ix.size, &info,
                               values, err, err_size) < 0) {
            free(zeroing[0]);
            free(zeroing[1]);
            tableset_free(ts);
            return NULL;
        }
    }
    if (widen_rules(&info, values, rules) < 0) {
        snprintf(err, err_size, "out of memory");
        free(rules[0]);
        free(rules[1]);
        free(zeroing[0]);
        free(zeroing[1]);
        tableset_free(ts);
        return NULL;
    }
    if (zeroing[0])
        summarize_zeroing(&zeroing_info, zeroing, rules, z);
    return t;
}

/* The file `info --variant NAME MATERIAL` describes: the material's .wdl file in the
 * variant's folder of the table root dir, the material read with either side first (the
 * table of KvKK is KKvK's, as damero gen builds it). Returns EXIT_OK with the file in path,
 * or the exit code after reporting the failure: EXIT_USAGE for a material that cannot be,
 * EXIT_FAILURE_RUN for a table not built, named with the command that builds it. */
static int material_file(const struct variant *v, const char *dir, const char *text,
                         bool json, char *path, size_t path_size)
{
    struct material m, built;
    struct tableset ts;
    char folder[4096], name[MATERIAL_NAME_SIZE];
    char err[2 * sizeof folder + 256]; /* the fix names the folder and the root */

    if (material_parse(v, text, &m, err, sizeof err) < 0)
        return input_failure("info", json, "material", text, EXIT_USAGE, err);
    built = material_is_canonical(&m) ? m : material_flipped(&m);
    snprintf(folder, sizeof folder, "%s/%s", dir, v->name);
    tableset_init(&ts, v, folder); /* only names the folder: nothing to free */
    tableset_path(&ts, &built, METRIC_WDL, path, path_size);
    if (access(path, F_OK) == 0)
        return EXIT_OK;
    material_name(&m, name);
    snprintf(err, sizeof err, "no %s table for %s in %s: build it with 'damero gen "
             "--variant %s --dir %s %s'", table_metric_suffix(METRIC_WDL), name, folder,
             v->name, dir, name);
    return input_failure("info", json, "material", text, EXIT_FAILURE_RUN, err);
}

int cmd_info(int argc, char **argv)
{
    bool json = false;
    const struct variant *v = NULL;
    const char *root = NULL;
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT, .to.variant = &v },
        { "dir", OPTION_PATH, .to.text = &root },
        { "json", OPTION_FLAG, .to.flag = &json },
        { .name = NULL },
    };
    struct side_stats stats[2] = { { 0 }, { 0 } };
    struct tableset ts;
    const struct table *t;
    struct operands operands;
    char dir[4096], name[MATERIAL_NAME_SIZE], found[4096];
    char err[sizeof found + 1024]; /* the messages name the file */
    dtm_t *rules[2];
    int reading;
    int status = parse_options("info", help, options, argc, argv, &operands);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    if (operands.count != 1)
        return usage_error("info", v ? "name one material" : "name one table file");
    const char *file = operands.arg[0];
    if (root && !v)
        return usage_error("info", "--dir goes with --variant and a MATERIAL (a FILE names "
                                   "its own folder)");
    if (v) {
        status = material_file(v, root ? root : default_table_dir(), operands.arg[0], json,
                               found, sizeof found);
        if (status != EXIT_OK)
            return status;
        file = found;
    }
    struct stat st;
    if (!v && stat(file, &st) == 0 && S_ISDIR(st.st_mode))
        return input_failure("info", json, "file", file, EXIT_USAGE,
                             "FILE is one table file (e.g. tables/russian/KKvK.wdl), and this "
                             "is a directory: name a file in it, or give --variant NAME "
                             "MATERIAL (with --dir for a folder of tables)");
    struct zeroing_summary zeroing = { 0 };
    if (!(t = open_table(file, &ts, dir, sizeof dir, rules, &reading, &zeroing, err,
                         sizeof err))) {
        return input_failure("info", json, "file", file, EXIT_FAILURE_RUN, err);
    }
    struct table_metrics has = { !ts.wdl_only, t->mtc[WHITE] != NULL };
    for (int side = WHITE; side <= BLACK && status == EXIT_OK; side++)
        if (count_side(t, has, rules[0] ? rules : NULL, (enum side)side, &stats[side]) < 0) {
            status = input_failure("info", json, "file", file, EXIT_FAILURE_RUN,
                                   "out of memory");
        }
    material_name(&t->m, name);
    if (status == EXIT_OK && json) {
        json_t *json = json_pack(
            "{s:s, s:s, s:I, s:o, s:o}", "variant", ts.v->name, "material", name,
            "positions", (json_int_t)(stats[WHITE].positions + stats[BLACK].positions),
            "white", side_json(ts.v, t, WHITE, &stats[WHITE], reading > 0), "black",
            side_json(ts.v, t, BLACK, &stats[BLACK], reading > 0));
        if (json && zeroing.is &&
            (json_object_set_new(json, "zeroing_longest", json_integer(zeroing.longest)) < 0 ||
             json_object_set_new(json, "zeroing_known", json_integer((json_int_t)zeroing.known)) < 0 ||
             json_object_set_new(json, "zeroing_unknown",
                                 json_integer((json_int_t)zeroing.unknown)) < 0)) {
            json_decref(json);
            json = NULL;
        }
        if (json && reading > 0 &&
            json_object_set_new(json, "rules_reading", json_integer(reading)) < 0) {
            json_decref(json);
            json = NULL;
        }
        if (json_print("info", json) < 0)
            status = EXIT_FAILURE_RUN;
    } else if (status == EXIT_OK) {
        printf("%s %s: %" PRIu64 " positions (%" PRIu64 " per side to move, %" PRIu64
               " stored)\n", ts.v->title, name, stats[WHITE].positions + stats[BLACK].positions,
               stats[WHITE].positions, t->ix.size);
        if (reading > 0)
            printf("values under the move-limit rules, reading %d, each position's fresh "
                   "state (the DTM is to the end of the game under the rules)\n", reading);
        if (zeroing.is)
            printf("distances to zeroing under the rules beside it: the longest %d plies; "
                   "%llu won or lost fresh states have one, %llu have none (a \"win "
                   "within\" count runs there; the probe searches)\n", zeroing.longest,
                   (unsigned long long)zeroing.known, (unsigned long long)zeroing.unknown);
        print_text_side(ts.v, t, WHITE, &stats[WHITE], reading > 0);
        print_text_side(ts.v, t, BLACK, &stats[BLACK], reading > 0);
    }
    for (int side = WHITE; side <= BLACK; side++) {
        free(stats[side].win_plies);
        free(stats[side].loss_plies);
        free(rules[side]);
    }
    tableset_free(&ts);
    return status;
}
