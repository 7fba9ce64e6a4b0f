/* damero annotate: the games of a PDN file written back with the tables' verdict at
 * every position inside them, and the move that kept the value wherever a move lost it. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/api_json.h"
#include "cli/commands.h"
#include "cli/json_out.h"
#include "cli/options.h"
#include "cli/pdn.h"
#include "cli/probing.h"
#include "cli/rules_args.h"
#include "cli/text_encoding.h"
#include "core/variant.h"

static const char help[] =
    "usage: damero annotate [--dir DIR] [--variant NAME] [--json] [--cache MB]\n"
    "                       [--rules] [--reading N] [--changes-only] GAME.pdn\n"
    "\n"
    "Reads the games of the PDN file GAME.pdn ('-': standard input; UTF-8, or Windows-1251\n"
    "as many Russian files are, said and written back in UTF-8): tags, a [FEN] setup (on\n"
    "the algebraic boards with names or numbers) or the starting position, the main line's\n"
    "moves in the variant's notation (variations skipped); and writes them back on stdout\n"
    "with a comment {damero: ...} after every move that reaches a position inside the\n"
    "tables: its value for the side to move (win or loss with DTM in plies, or draw; MTC\n"
    "where the tables hold no DTM), and, where the move played changed the value, the move\n"
    "that kept it; such a move is marked ? (a win thrown to a draw, a draw to a loss) or\n"
    "?? (a win to a loss). Each game that reached the tables ends with a summary of both\n"
    "players' marked moves. The game's own comments are kept; damero's earlier comments\n"
    "and the file's own move marks are replaced, so annotating twice gives the same text.\n"
    "A game that cannot be read (a broken tag, an illegal move, an unknown variant, a NUL\n"
    "byte) is reported on stderr with its number and move (games without a GameType tag\n"
    "in one line for the file), written back annotated up to there (as it stands in the\n"
    "file when no move of it could be followed), and the others go on; the exit code is\n"
    "then 1. A last line on stderr says how many games the file held and how many reached\n"
    "the tables.\n"
    "\n"
    "  --dir DIR       the table root, as given to 'damero gen --dir'\n"
    "                  (default: " DEFAULT_DIR_HELP ")\n"
    "  --variant NAME  the rules of every game, whatever its GameType tag says (a game\n"
    "                  without the tag needs it)\n"
    "  --json          a JSON list, one object per game: game, line, variant, result, error\n"
    "                  (null when none) and positions, a list of {ply, fen, wdl, dtm, mtc\n"
    "                  (null outside the tables; where the tables lack DTM or MTC, null\n"
    "                  and not_built: [\"dtm\", ...]), move (as written; null after the last\n"
    "                  move followed), move_wdl (what the move played is worth), kept_by\n"
    "                  (the move that kept the value when the one played lost it, else\n"
    "                  null)}; with --rules also rules (the value under the rules as\n"
    "                  'damero probe --json --rules' gives it, or null), count_run_out\n"
    "                  (the rule whose count has run out there, or null), move_rules_wdl\n"
    "                  and rules_kept_by (move_wdl and kept_by under the rules). A file\n"
    "                  that cannot be read gives {file, error: the sentence} instead\n"
    "  --cache MB      each variant's table block cache (default: 64)\n"
    "  --rules         also judge the games under the variant's move-limit rules\n"
    "                  (docs/rules.md, 5.10), the counts carried along each game from its\n"
    "                  moves, every count starting where its ending arises: the value\n"
    "                  under the rules where it is not the tables' own, a move that throws\n"
    "                  a win (or a draw) away under the rules, e.g. by letting a count run\n"
    "                  out, with the move that kept it, and the position where a count\n"
    "                  runs out, drawing the game (nothing is judged under the rules after)\n"
    "  --reading N     1: each rule's first reading of its limit (default); 2: the second,\n"
    "                  for the rules whose sources differ. Implies --rules\n"
    "  --changes-only  damero's comments only after the moves that change the value (and\n"
    "                  on the first position and the summary)\n";

#define MAX_FILE_BYTES (256u << 20)
#define MOVE_WITH_MARK_SIZE 256 /* a move as written in the file, and "??" */

struct annotate_args {
    struct table_args t; /* t.variant NULL: from each game's GameType */
    struct rules_args rules;
    bool changes_only;   /* comment only the moves that change the value */
    const char *file;
};

/* The tables of each variant, opened when a game first needs them. */
struct context {
    const struct annotate_args *a;
    damero_tb *tables[32];
    damero_move *moves, *scored; /* DAMERO_MAX_MOVES each */
    damero_rules_move *scored_rules; /* DAMERO_MAX_MOVES, with --rules */
};

/* What the tables say of a position and its move under the move-limit rules (--rules),
 * the counts carried along the game from its moves. */
struct rules_note {
    damero_counts counts;       /* at the position, before its move */
    int run_out;                /* the rule whose count has run out here (a draw), or -1 */
    bool known;                 /* inside the tables, and no count ran out before */
    bool not_built;             /* not known: the tables hold the WDL but no DTM or MTC */
    damero_rules_value value;   /* for the side to move */
    bool move_known;
    int move_wdl;               /* what the move played is worth under the rules */
    damero_move kept;           /* the best move under the rules, when the one played lost */
    bool lost;
};

/* What the tables say of one position of a game, and of the move played there. */
struct note {
    damero_position pos;
    bool known;              /* inside the tables */
    damero_value value;      /* for the side to move */
    bool move_known;
    damero_value move_value; /* what the move played is worth to the side that played it */
    damero_move kept;        /* the best move, when the one played lost value */
    bool lost;
    struct rules_note rules; /* with --rules */
};

/* A game followed through: notes[0..plies] for the positions before each move and after
 * the last one read; plies stops short of the game's length at an error. */
struct followed {
    const char *variant;
    damero_tb *tb;           /* the variant's tables */
    bool second_first;       /* the first move is the second of its pair (pdn.h) */
    struct note *notes;
    int plies;
    bool count_run_out;      /* under the rules: a count ran out, the game was drawn */
    bool no_gametype;        /* error: no GameType tag, and no --variant */
    char error[512];
};

static int parse_args(int argc, char **argv, struct annotate_args *a)
{
    const struct option_spec options[] = {
        { "variant", OPTION_VARIANT_NAME, .to.text = &a->t.variant },
        TABLE_OPTIONS(&a->t),
        CACHE_OPTION(&a->t),
        RULES_READING_OPTIONS(&a->rules),
        { "changes-only", OPTION_FLAG, .to.flag = &a->changes_only },
        { .name = NULL },
    };
    struct operands operands;
    int status = parse_options("annotate", help, options, argc, argv, &operands);

    if (status != EXIT_OK)
        return status;
    if (operands.count != 1)
        return usage_error("annotate", "name one PDN file");
    a->file = operands.arg[0];
    return EXIT_OK;
}

/* All of f, 0-terminated, growing the buffer as it reads (standard input has no size to
 * ask for); NULL when it cannot be read, is larger than MAX_FILE_BYTES or memory runs
 * out. */
static char *read_all(FILE *f, size_t *size)
{
    size_t capacity = 1 << 16;
    char *text = malloc(capacity + 1), *grown;

    *size = 0;
    while (text) {
        *size += fread(text + *size, 1, capacity - *size, f);
        if (*size < capacity)
            break;
        grown = capacity < MAX_FILE_BYTES ? realloc(text, 2 * capacity + 1) : NULL;
        if (!grown)
            free(text);
        text = grown;
        capacity *= 2;
    }
    if (text && ferror(f))
        free(text), text = NULL;
    if (text)
        text[*size] = '\0';
    return text;
}

/* The whole file ("-": standard input), 0-terminated; NULL with why it cannot be read in
 * message. */
static char *read_file(const char *path, size_t *size, char *message, size_t message_size)
{
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    char *text;

    if (!f) {
        snprintf(message, message_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    if (!(text = read_all(f, size)))
        snprintf(message, message_size, "cannot read %s (a file of at most %u MB)",
                 from_stdin ? "standard input" : path, MAX_FILE_BYTES >> 20);
    if (!from_stdin)
        fclose(f);
    return text;
}

/* text itself when it is UTF-8, else text read as Windows-1251 (the encoding of many
 * Russian PDN files), in UTF-8, saying so: the output, JSON above all, is UTF-8. Frees
 * text when it returns another string; NULL when memory runs out. */
static char *as_utf8(char *text, size_t *size, const char *path)
{
    if (utf8_valid(text, *size))
        return text;
    char *converted = utf8_from_windows1251(text, *size, size);
    free(text);
    if (converted)
        fprintf(stderr, "damero annotate: %s is not UTF-8: read as Windows-1251 (Cyrillic); "
                "written back in UTF-8\n", strcmp(path, "-") == 0 ? "standard input" : path);
    return converted;
}

/* ---- following a game ---- */

/* The game's variant: --variant, or the row whose PDN GameType the tag names ("20" or
 * "20,W,10,10,N2,0"). */
static const char *game_variant(const struct context *ctx, const struct pdn_game *g,
                                struct followed *f)
{
    const char *tag = pdn_tag(g, "GameType");
    char *end;
    long type;

    if (ctx->a->t.variant)
        return ctx->a->t.variant;
    if (!tag) {
        snprintf(f->error, sizeof f->error, "no GameType tag: give the rules with --variant");
        f->no_gametype = true;
        return NULL;
    }
    type = strtol(tag, &end, 10);
    for (const struct variant *v = variants; v->name && end != tag; v++)
        if (v->pdn_gametype != 0 && v->pdn_gametype == type)
            return v->name;
    snprintf(f->error, sizeof f->error, "GameType \"%.40s\" is not a variant damero plays "
             "(see docs/rules.md, or give --variant)", tag);
    return NULL;
}

static damero_tb *tables_for(struct context *ctx, const char *variant, struct followed *f)
{
    int k = 0;

    while (damero_variant_name(k) && strcmp(damero_variant_name(k), variant) != 0)
        k++;
    if (!ctx->tables[k] &&
        damero_open(variant, ctx->a->t.dir, ctx->a->t.cache_bytes, &ctx->tables[k]) != DAMERO_OK)
        snprintf(f->error, sizeof f->error, "%s", damero_error_message());
    return ctx->tables[k];
}

/* The squares of a move's text, lower case, separated by single spaces: "c3 e5 c7". */
static void move_squares(const char *text, char *out, size_t size)
{
    size_t n = 0;

    for (; *text && n + 1 < size; text++)
        out[n++] = strchr("-x:", *text) ? ' ' : (char)tolower((unsigned char)*text);
    out[n] = '\0';
}

/* Whether written (squares) names the legal move m: the same first and last square, and
 * any squares between among m's landing squares, in order (PDN may leave them out). */
static bool names_move(const char *written, const damero_move *m)
{
    char want[DAMERO_MOVE_TEXT_SIZE], have[DAMERO_MOVE_TEXT_SIZE];
    const char *w, *h;

    move_squares(written, want, sizeof want);
    move_squares(m->text, have, sizeof have);
    for (w = want, h = have; *w;) {
        size_t n = strcspn(w, " ");
        const char *found = h;
        /* the next square of `have`, from h on, equal to this one */
        while (*found && !(strncmp(found, w, n) == 0 && (found[n] == ' ' || !found[n])))
            found += strcspn(found, " "), found += strspn(found, " ");
        if (!*found || (w == want && found != have))
            return false;
        h = found + n;
        w += n;
        w += strspn(w, " ");
        if (!*w && *h) /* the last squares must be the same */
            return false;
    }
    return true;
}

/* The legal move the game's ply names; false with f->error set when none or several. */
static bool find_move(struct context *ctx, damero_tb *tb, const struct pdn_game *g,
                      struct followed *f, int ply, damero_move *played)
{
    const char *written = g->moves[ply].text;
    char label[24], list[400] = "";
    int count, found = 0;

    pdn_move_number(f->second_first, ply, label, sizeof label);
    if (damero_legal_moves(tb, &f->notes[ply].pos, ctx->moves, DAMERO_MAX_MOVES, &count) !=
        DAMERO_OK) {
        snprintf(f->error, sizeof f->error, "move %s %s: %s", label, written,
                 damero_error_message());
        return false;
    }
    for (int k = 0; k < count; k++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s", k ? ", " : "", ctx->moves[k].text);
        if (names_move(written, &ctx->moves[k]) && found++ == 0)
            *played = ctx->moves[k];
    }
    if (found == 1)
        return true;
    snprintf(f->error, sizeof f->error, "move %s %s: %s; the legal moves are: %s", label,
             written, found ? "names more than one legal move (write every square it lands on)"
                            : "not a legal move here", count ? list : "none, the game is over");
    return false;
}

/* What the tables say of notes[ply]. Returns false with f->error set when a table is
 * damaged; a position outside the tables is only not known. */
static bool judge_position(damero_tb *tb, struct followed *f, int ply)
{
    struct note *n = &f->notes[ply];
    int status = damero_probe(tb, &n->pos, &n->value);

    n->known = status == DAMERO_OK;
    if (status != DAMERO_OK && status != DAMERO_ERR_MISSING) {
        snprintf(f->error, sizeof f->error, "%s", damero_error_message());
        return false;
    }
    return true;
}

/* What the move played from notes[ply] is worth, and the best move when it lost value. */
static bool judge_move(struct context *ctx, damero_tb *tb, struct followed *f, int ply,
                       const damero_move *played)
{
    struct note *n = &f->notes[ply];
    int count;

    if (!n->known)
        return true;
    if (damero_root_moves(tb, &n->pos, ctx->scored, DAMERO_MAX_MOVES, &count) != DAMERO_OK) {
        snprintf(f->error, sizeof f->error, "%s", damero_error_message());
        return false;
    }
    for (int k = 0; k < count; k++)
        if (strcmp(ctx->scored[k].text, played->text) == 0) {
            n->move_known = true;
            n->move_value = ctx->scored[k].value;
        }
    n->lost = n->move_known && n->move_value.wdl < n->value.wdl;
    if (n->lost)
        n->kept = ctx->scored[0];
    return true;
}

/* Under the rules (--rules): whether a count has run out at notes[ply], drawing the game
 * (the rules are then over for the rest of it), or else the position's value under the
 * rules, its counts carried there by the game's moves. Returns false with f->error set
 * when a table is damaged; a position outside the tables, or one whose search needs more
 * memory than the library allows, is only not known. */
static bool judge_position_rules(const struct context *ctx, struct followed *f, int ply)
{
    struct rules_note *r = &f->notes[ply].rules;
    const damero_position *pos = &f->notes[ply].pos;
    int reading = ctx->a->rules.reading, end, status;

    if (!ctx->a->rules.on || f->count_run_out)
        return true;
    status = damero_game_end(f->tb, pos, &end, NULL);
    if (status == DAMERO_OK && end == DAMERO_PLAYING)
        status = damero_counts_run_out(f->tb, pos, &r->counts, reading, &r->run_out);
    if (status == DAMERO_OK && r->run_out >= 0) {
        f->count_run_out = true;
        return true;
    }
    if (status == DAMERO_OK)
        status = damero_probe_rules(f->tb, pos, &r->counts, reading, &r->value);
    r->known = status == DAMERO_OK;
    r->not_built = status == DAMERO_ERR_MISSING && f->notes[ply].known &&
                   (f->notes[ply].value.dtm == DAMERO_NOT_BUILT ||
                    f->notes[ply].value.mtc == DAMERO_NOT_BUILT);
    if (status != DAMERO_OK && status != DAMERO_ERR_MISSING && status != DAMERO_ERR_MEMORY) {
        snprintf(f->error, sizeof f->error, "%s", damero_error_message());
        return false;
    }
    return true;
}

/* Under the rules: the counts after the move played from notes[ply], those of
 * notes[ply + 1]. */
static bool carry_counts(const struct context *ctx, struct followed *f, int ply,
                         const damero_move *played)
{
    if (!ctx->a->rules.on ||
        damero_counts_after(f->tb, &f->notes[ply].pos, &f->notes[ply].rules.counts, played,
                            &f->notes[ply + 1].rules.counts) == DAMERO_OK)
        return true;
    snprintf(f->error, sizeof f->error, "%s", damero_error_message());
    return false;
}

/* Under the rules: what the move played from notes[ply] was worth, read from the position
 * it reached (judged already: its value, or a count that ran out there), and the best
 * move when it lost value. A search of every move is dear, so it is made only then. */
static bool judge_move_rules(struct context *ctx, struct followed *f, int ply)
{
    struct rules_note *r = &f->notes[ply].rules;
    const struct rules_note *next = &f->notes[ply + 1].rules;
    int count;

    if (!ctx->a->rules.on || !r->known)
        return true;
    r->move_known = next->known || next->run_out >= 0;
    r->move_wdl = next->known ? -next->value.wdl : DAMERO_DRAW;
    r->lost = r->move_known && r->move_wdl < r->value.wdl;
    if (!r->lost)
        return true;
    if (damero_root_moves_rules(f->tb, &f->notes[ply].pos, &r->counts, ctx->a->rules.reading,
                                ctx->scored_rules, DAMERO_MAX_MOVES, &count) != DAMERO_OK ||
        count == 0) {
        snprintf(f->error, sizeof f->error, "%s", damero_error_message());
        return false;
    }
    r->kept = ctx->scored_rules[0].move;
    return true;
}

/* Plays the game's moves from its start, judging each position. f->plies ends up at the
 * number of moves followed; f->error says why it stopped short. Returns -1 when memory
 * runs out, else 0. */
static int follow(struct context *ctx, const struct pdn_game *g, struct followed *f)
{
    const char *fen = pdn_tag(g, "FEN");
    damero_move played;

    if (!(f->notes = calloc((size_t)g->num_moves + 1, sizeof *f->notes)))
        return -1;
    for (int ply = 0; ply <= g->num_moves; ply++)
        f->notes[ply].rules.run_out = -1;
    for (int k = 0; k < DAMERO_MAX_RULES; k++) /* every count starts when its ending arises */
        f->notes[0].rules.counts.plies[k] = DAMERO_COUNT_NOT_STARTED;
    if (g->error[0]) {
        snprintf(f->error, sizeof f->error, "%s", g->error);
        return 0;
    }
    if (!(f->variant = game_variant(ctx, g, f)) || !(f->tb = tables_for(ctx, f->variant, f)))
        return 0;
    if (fen ? damero_parse_fen(f->tb, fen, &f->notes[0].pos) != DAMERO_OK
            : damero_start_position(f->tb, &f->notes[0].pos) != DAMERO_OK) {
        snprintf(f->error, sizeof f->error, "the FEN tag: %s", damero_error_message());
        return 0;
    }
    f->second_first = pdn_second_first(f->tb, &f->notes[0].pos);
    for (f->plies = 0;; f->plies++) {
        if (!judge_position(f->tb, f, f->plies) || !judge_position_rules(ctx, f, f->plies) ||
            (f->plies > 0 && !judge_move_rules(ctx, f, f->plies - 1)) ||
            f->plies == g->num_moves || !find_move(ctx, f->tb, g, f, f->plies, &played) ||
            !judge_move(ctx, f->tb, f, f->plies, &played) ||
            !carry_counts(ctx, f, f->plies, &played))
            return 0;
        f->notes[f->plies + 1].pos = played.after;
    }
}

/* ---- writing ---- */

static const char *wdl_noun(int wdl)
{
    return wdl == DAMERO_WIN ? "win" : wdl == DAMERO_LOSS ? "loss" : "draw";
}

/* "White to move wins in 7 plies.", "Black to move draws.", "White to move wins (no DTM
 * table; MTC 3 plies)." */
static void value_words(const struct note *n, char *out, size_t size)
{
    static const char *const verb[] = { "loses", "draws", "wins" }; /* by wdl + 1 */
    const char *side = side_word(n->pos.side_to_move);

    if (n->value.wdl == DAMERO_DRAW)
        snprintf(out, size, "%s to move draws.", side);
    else if (n->value.dtm == DAMERO_NOT_BUILT && n->value.mtc == DAMERO_NOT_BUILT)
        snprintf(out, size, "%s to move %s (no DTM or MTC table).", side,
                 verb[n->value.wdl + 1]);
    else if (n->value.dtm == DAMERO_NOT_BUILT)
        snprintf(out, size, "%s to move %s (no DTM table; MTC %d %s).", side,
                 verb[n->value.wdl + 1], n->value.mtc, n->value.mtc == 1 ? "ply" : "plies");
    else if (n->value.dtm == 0)
        snprintf(out, size, "%s to move %s: the game is over.", side, verb[n->value.wdl + 1]);
    else
        snprintf(out, size, "%s to move %s in %d %s.", side, verb[n->value.wdl + 1],
                 n->value.dtm, n->value.dtm == 1 ? "ply" : "plies");
}

/* Under the rules (--rules): "The main road count has run out: a draw under the rules.",
 * "Under the rules: a win in 25 plies.", "Under the rules: a draw (cursed win).", "Under
 * the rules: not known (they need DTM and MTC tables)."; ""
 * when there is nothing to say, or the value is the tables' own (the same result in
 * the same plies). */
static void rules_words(const struct followed *f, const struct note *n, char *out,
                        size_t size)
{
    const damero_rules_value *v = &n->rules.value;
    damero_rule_info info;
    char words[64];

    out[0] = '\0';
    if (n->rules.run_out >= 0 && damero_rule(f->tb, n->rules.run_out, &info) == DAMERO_OK) {
        snprintf(out, size, " The %s count has run out: a draw under the rules.", info.name);
    } else if (n->rules.not_built) {
        snprintf(out, size, " Under the rules: not known (they need DTM and MTC tables).");
    } else if (!n->rules.known || (v->wdl == v->plain.wdl && v->plies == v->plain.dtm)) {
        return;
    } else if (v->wdl != DAMERO_DRAW) {
        snprintf(out, size, " Under the rules: a %s in %d %s.", wdl_noun(v->wdl), v->plies,
                 v->plies == 1 ? "ply" : "plies");
    } else {
        rules_value_words(v, words, sizeof words);
        snprintf(out, size, " Under the rules: a %s.", words);
    }
}

/* What damero says of a position: its value ("White to move wins in 7 plies.") when it
 * is inside the tables, then under the rules (rules_words); "" when nothing. */
static void position_words(const struct followed *f, const struct note *n, char *out,
                           size_t size)
{
    char value[128] = "", rules[128];

    if (n->known)
        value_words(n, value, sizeof value);
    rules_words(f, n, rules, sizeof rules);
    snprintf(out, size, "%s%s", value, n->known ? rules : rules + (rules[0] == ' '));
}

/* "a1-b2 turns the win into a draw; c1-a3 kept the win. " when the move played from
 * before lost value, and the same under the rules when it lost value there (and the
 * tables alone did not say so already); "" otherwise. */
static void lost_words(const struct note *before, const char *played, char *out,
                       size_t size)
{
    const struct rules_note *r = &before->rules;
    size_t n = 0;

    out[0] = '\0';
    if (before->lost)
        n = (size_t)snprintf(out, size, "%s turns the %s into a %s; %s kept the %s. ", played,
                             wdl_noun(before->value.wdl), wdl_noun(before->move_value.wdl),
                             before->kept.text, wdl_noun(before->value.wdl));
    if (r->lost && !(before->lost && strcmp(r->kept.text, before->kept.text) == 0 &&
                     r->value.wdl == before->value.wdl &&
                     r->move_wdl == before->move_value.wdl))
        snprintf(out + n, size - n, "%s turns the %s under the rules into a %s; %s kept the %s. ",
                 played, wdl_noun(r->value.wdl), wdl_noun(r->move_wdl), r->kept.text,
                 wdl_noun(r->value.wdl));
}

/* damero's comment after ply (the move played from notes[ply - 1]), "" when there is
 * nothing to say (the position it reaches is outside the tables). */
static void comment_after(const struct followed *f, int ply, const struct pdn_game *g,
                          char *out, size_t size)
{
    char lost[384], value[256];

    lost_words(&f->notes[ply - 1], g->moves[ply - 1].text, lost, sizeof lost);
    position_words(f, &f->notes[ply], value, sizeof value);
    out[0] = '\0';
    if (lost[0] || value[0])
        snprintf(out, size, "%s %s%s", PDN_OWN_COMMENT, lost, value);
    for (size_t n = strlen(out); n > 0 && out[n - 1] == ' ';) /* lost alone ends in ' ' */
        out[--n] = '\0';
}

/* A game not followed a single move (it cannot be read, its first move is not legal, no
 * tables): written back as it stands in the file, byte for byte, rather than rewritten
 * from what was read of it (its move numbers, at least, would change). */
static void write_unread(const char *text, const struct pdn_game *g)
{
    fwrite(text + g->start, 1, g->end - g->start, stdout);
    fputs("\n\n", stdout);
}

static bool reached_tables(const struct followed *f)
{
    for (int ply = 0; ply <= f->plies; ply++)
        if (f->notes[ply].known)
            return true;
    return false;
}

/* The mark of the move played from n, by the value it lost: "?" one step (a win to a
 * draw, a draw to a loss), "??" two (a win to a loss); under the rules as well where they
 * are judged, the larger of the two; "" when it lost nothing. */
static const char *mistake_mark(const struct note *n)
{
    int drop = n->lost ? n->value.wdl - n->move_value.wdl : 0;
    if (n->rules.lost && n->rules.value.wdl - n->rules.move_wdl > drop)
        drop = n->rules.value.wdl - n->rules.move_wdl;
    return drop >= 2 ? "??" : drop == 1 ? "?" : "";
}

/* The tags that name the players, by side: PDN's, then those of Russian files. */
static const char *const player_tags[2][3] = { { "White", "Белые", NULL },
                                               { "Black", "Черные", "Чёрные" } };

static const char *player_name(const struct pdn_game *g, int side)
{
    const char *name = NULL;
    for (int k = 0; k < 3 && player_tags[side][k] && !name; k++)
        name = pdn_tag(g, player_tags[side][k]);
    return name;
}

/* One player's part of the summary: "White (Kings): 1... a1-b2?? 3. c1-d2?" or
 * "White: no value lost". */
static size_t player_summary(const struct followed *f, const struct pdn_game *g, int side,
                             char *out, size_t size)
{
    const char *name = player_name(g, side);
    char number[24];
    bool any = false;
    size_t n = (size_t)snprintf(out, size, name && *name ? "%s (%s):" : "%s:",
                                side_word(side), name);
    for (int ply = 0; ply < f->plies && n < size; ply++) {
        const char *mark = mistake_mark(&f->notes[ply]);
        if (!*mark || f->notes[ply].pos.side_to_move != side)
            continue;
        pdn_move_number(f->second_first, ply, number, sizeof number);
        n += (size_t)snprintf(out + n, size - n, " %s %s%s", number, g->moves[ply].text, mark);
        any = true;
    }
    if (!any && n < size)
        n += (size_t)snprintf(out + n, size - n, " no value lost");
    return n;
}

/* "damero: summary: White (Kings): 1. a1-b2?; Black: no value lost." for a game that
 * reached the tables, "" for one that did not. */
static void game_summary(const struct followed *f, const struct pdn_game *g, char *out,
                         size_t size)
{
    out[0] = '\0';
    if (!reached_tables(f))
        return;
    size_t n = (size_t)snprintf(out, size, "%s summary: ", PDN_OWN_COMMENT);
    n += player_summary(f, g, DAMERO_WHITE, out + n, n < size ? size - n : 0);
    if (n < size)
        n += (size_t)snprintf(out + n, size - n, "; ");
    if (n < size)
        n += player_summary(f, g, DAMERO_BLACK, out + n, size - n);
    if (n < size)
        snprintf(out + n, size - n, ".");
}

static void write_pdn(const struct pdn_game *g, const struct followed *f, bool changes_only)
{
    struct pdn_writer w;
    char comment[768], value[256], move[MOVE_WITH_MARK_SIZE], summary[1024];

    for (int k = 0; k < g->num_tags; k++)
        pdn_write_tag(stdout, g->tags[k].name, g->tags[k].value);
    pdn_writer_init(&w, stdout, f->second_first);
    if (g->comment)
        pdn_write_comment(&w, g->comment);
    if (f->variant) {
        position_words(f, &f->notes[0], value, sizeof value);
        snprintf(comment, sizeof comment, "%s %s", PDN_OWN_COMMENT, value);
        if (value[0])
            pdn_write_comment(&w, comment);
    }
    for (int ply = 1; ply <= g->num_moves; ply++) {
        const char *mark = ply <= f->plies ? mistake_mark(&f->notes[ply - 1]) : "";
        snprintf(move, sizeof move, "%s%s", g->moves[ply - 1].text, mark);
        pdn_write_move(&w, move);
        if (g->moves[ply - 1].comment)
            pdn_write_comment(&w, g->moves[ply - 1].comment);
        if (ply <= f->plies && (!changes_only || *mark)) {
            comment_after(f, ply, g, comment, sizeof comment);
            if (comment[0])
                pdn_write_comment(&w, comment);
        }
    }
    game_summary(f, g, summary, sizeof summary);
    if (summary[0])
        pdn_write_comment(&w, summary);
    pdn_write_end(&w, g->result);
}

/* wdl_key, and with counts dtm and mtc (and not_built, json_with_value), all null when
 * not known. */
static json_t *value_json(json_t *o, const char *wdl_key, const damero_value *v, bool known,
                          bool with_counts)
{
    if (with_counts && known)
        return json_with_value(o, v); /* its key is "wdl" */
    o = json_with(o, wdl_key, known ? json_string(wdl_word(v->wdl)) : json_null());
    if (with_counts) {
        o = json_with(o, "dtm", json_null());
        o = json_with(o, "mtc", json_null());
    }
    return o;
}

/* With --rules: rules (the value under the rules, as probe --json --rules has it, or
 * null), count_run_out (the rule whose count has run out there, or null), move_rules_wdl
 * and rules_kept_by, added to o. */
static json_t *rules_json(const struct context *ctx, const struct followed *f,
                          const struct note *n, bool moved, json_t *o)
{
    const struct rules_note *r = &n->rules;
    damero_rule_info info;

    o = json_with(o, "rules", r->known ? rules_value_json(f->tb, ctx->a->rules.reading,
                                                          &r->value)
                                       : json_null());
    o = json_with(o, "count_run_out",
                  r->run_out >= 0 && damero_rule(f->tb, r->run_out, &info) == DAMERO_OK
                      ? json_string(info.name) : json_null());
    o = json_with(o, "move_rules_wdl", moved && r->move_known
                                           ? json_string(wdl_word(r->move_wdl))
                                           : json_null());
    return json_with(o, "rules_kept_by", r->lost ? json_string(r->kept.text) : json_null());
}

static json_t *note_json(const struct context *ctx, const struct pdn_game *g,
                         const struct followed *f, int ply)
{
    const struct note *n = &f->notes[ply];
    char fen[DAMERO_FEN_SIZE];
    bool moved = ply < f->plies;
    json_t *o;

    if (damero_write_fen(f->tb, &n->pos, fen) != DAMERO_OK)
        return NULL;
    o = json_pack("{s:i, s:s}", "ply", ply, "fen", fen);
    o = value_json(o, "wdl", &n->value, n->known, true);
    o = json_with(o, "move", moved ? json_string(g->moves[ply].text) : json_null());
    o = value_json(o, "move_wdl", &n->move_value, moved && n->move_known, false);
    o = json_with(o, "kept_by", n->lost ? json_string(n->kept.text) : json_null());
    return ctx->a->rules.on ? rules_json(ctx, f, n, moved, o) : o;
}

static json_t *game_json(const struct context *ctx, const struct pdn_game *g,
                         const struct followed *f)
{
    json_t *positions = json_array();

    for (int ply = 0; f->tb && ply <= f->plies && positions; ply++)
        json_append(&positions, note_json(ctx, g, f, ply));
    return json_pack("{s:i, s:i, s:o, s:o, s:o, s:o}", "game", g->number, "line", g->line,
                     "variant", f->variant ? json_string(f->variant) : json_null(), "result",
                     g->result[0] ? json_string(g->result) : json_null(), "error",
                     f->error[0] ? json_string(f->error) : json_null(), "positions", positions);
}

/* What a file's games came to, told in one line at the end. */
struct file_tally {
    int games, reached, not_read;
    int no_gametype, first_no_gametype, its_line; /* said once, not once a game */
};

/* The game's fault on stderr, but a missing GameType only counted: a file without the
 * tag lacks it in every game. */
static void tally_game(struct file_tally *t, const struct pdn_game *g,
                       const struct followed *f, const char *name)
{
    t->games++;
    t->reached += reached_tables(f);
    if (!f->error[0])
        return;
    t->not_read += f->plies == 0;
    if (f->no_gametype && t->no_gametype++ == 0) {
        t->first_no_gametype = g->number;
        t->its_line = g->line;
    } else if (!f->no_gametype) {
        fprintf(stderr, "damero annotate: %s: game %d (line %d): %s\n", name, g->number,
                g->line, f->error);
    }
}

static void print_tally(const struct file_tally *t, const char *name)
{
    if (t->no_gametype)
        fprintf(stderr, "damero annotate: %s: %d game%s without a GameType tag (the first: "
                "game %d, line %d): give the rules with --variant\n", name, t->no_gametype,
                t->no_gametype == 1 ? "" : "s", t->first_no_gametype, t->its_line);
    fprintf(stderr, "damero annotate: %s: %d game%s, %d reached the tables", name, t->games,
            t->games == 1 ? "" : "s", t->reached);
    if (t->not_read)
        fprintf(stderr, ", %d could not be followed (written back as they stand)", t->not_read);
    fprintf(stderr, "\n");
}

/* Annotates every game of text; returns the exit code. */
static int annotate(struct context *ctx, const char *text, size_t size)
{
    struct pdn_reader r;
    struct pdn_game g;
    struct file_tally tally = { 0 };
    const char *name = strcmp(ctx->a->file, "-") == 0 ? "standard input" : ctx->a->file;
    json_t *list = ctx->a->t.json ? json_array() : NULL;
    int status = EXIT_OK, read;

    pdn_reader_init(&r, text, size);
    while ((read = pdn_read_game(&r, &g)) == 1) {
        struct followed f = { 0 };
        if (follow(ctx, &g, &f) < 0) {
            read = -1;
        } else {
            tally_game(&tally, &g, &f, name);
            if (f.error[0])
                status = EXIT_FAILURE_RUN;
            if (ctx->a->t.json)
                json_append(&list, game_json(ctx, &g, &f));
            else if (f.error[0] && f.plies == 0)
                write_unread(text, &g);
            else
                write_pdn(&g, &f, ctx->a->changes_only);
        }
        free(f.notes);
        pdn_game_free(&g);
        if (read < 0)
            break;
    }
    pdn_game_free(&g);
    if (read < 0) {
        fprintf(stderr, "damero annotate: out of memory\n");
        json_decref(list);
        return EXIT_FAILURE_RUN;
    }
    print_tally(&tally, name);
    if (ctx->a->t.json && json_print("annotate", list) < 0)
        return EXIT_FAILURE_RUN;
    return status;
}

int cmd_annotate(int argc, char **argv)
{
    struct annotate_args a = { .t = table_args_default(), .rules = RULES_ARGS_DEFAULT };
    struct context ctx = { .a = &a };
    size_t size = 0;
    char *text, message[512];
    int status = parse_args(argc, argv, &a);

    if (status != EXIT_OK)
        return status < 0 ? EXIT_OK : status;
    if (!(text = read_file(a.file, &size, message, sizeof message)))
        return input_failure("annotate", a.t.json, "file", a.file, EXIT_FAILURE_RUN, message);
    if (!(text = as_utf8(text, &size, a.file)))
        return input_failure("annotate", a.t.json, "file", a.file, EXIT_FAILURE_RUN,
                             "out of memory");
    ctx.moves = malloc(DAMERO_MAX_MOVES * sizeof *ctx.moves);
    ctx.scored = malloc(DAMERO_MAX_MOVES * sizeof *ctx.scored);
    ctx.scored_rules = malloc(DAMERO_MAX_MOVES * sizeof *ctx.scored_rules);
    if (ctx.moves && ctx.scored && ctx.scored_rules) {
        status = annotate(&ctx, text, size);
    } else {
        fprintf(stderr, "damero annotate: out of memory\n");
        status = EXIT_FAILURE_RUN;
    }
    for (size_t k = 0; k < sizeof ctx.tables / sizeof ctx.tables[0]; k++)
        damero_close(ctx.tables[k]);
    free(ctx.moves);
    free(ctx.scored);
    free(ctx.scored_rules);
    free(text);
    return status;
}
