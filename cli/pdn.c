#include "cli/pdn.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define WRAP_COLUMN 79

static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*" };

void pdn_reader_init(struct pdn_reader *r, const char *text, size_t size)
{
    *r = (struct pdn_reader){ .text = text, .size = size, .line = 1 };
}

/* ---- reading ---- */

static bool at_end(const struct pdn_reader *r)
{
    return r->pos >= r->size;
}

static char peek(const struct pdn_reader *r)
{
    return at_end(r) ? '\0' : r->text[r->pos];
}

static char next(struct pdn_reader *r)
{
    char c = r->text[r->pos++];
    if (c == '\n')
        r->line++;
    return c;
}

static void skip_space(struct pdn_reader *r)
{
    while (!at_end(r) && isspace((unsigned char)peek(r)))
        next(r);
}

static void skip_line(struct pdn_reader *r)
{
    while (!at_end(r) && next(r) != '\n')
        ;
}

/* Sets g->error, once: the first fault is the one reported. */
static void game_error(struct pdn_game *g, const struct pdn_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void game_error(struct pdn_game *g, const struct pdn_reader *r, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (g->error[0])
        return;
    n = snprintf(g->error, sizeof g->error, "line %d: ", r->line);
    va_start(ap, fmt);
    vsnprintf(g->error + n, sizeof g->error - (size_t)n, fmt, ap);
    va_end(ap);
}

static char *copy(const char *text, size_t length)
{
    char *s = malloc(length + 1);
    if (s) {
        memcpy(s, text, length);
        s[length] = '\0';
    }
    return s;
}

/* Adds text to *comment, after a space; returns -1 when memory runs out. */
static int add_comment(char **comment, const char *text, size_t length)
{
    size_t old = *comment ? strlen(*comment) : 0;
    char *s;

    while (length && isspace((unsigned char)*text))
        text++, length--;
    while (length && isspace((unsigned char)text[length - 1]))
        length--;
    if (length == 0 || (length >= strlen(PDN_OWN_COMMENT) &&
                        strncmp(text, PDN_OWN_COMMENT, strlen(PDN_OWN_COMMENT)) == 0))
        return 0;
    if (!(s = realloc(*comment, old + length + 2)))
        return -1;
    if (old)
        s[old++] = ' ';
    memcpy(s + old, text, length);
    s[old + length] = '\0';
    *comment = s;
    return 0;
}

/* [Name "value"]: the tag at r (on its '['). Returns -1 when memory runs out; a broken
 * tag sets g->error and skips the line. */
static int read_tag(struct pdn_reader *r, struct pdn_game *g)
{
    size_t name_start, name_end, start, end;
    char *value, *name;
    size_t length = 0;
    struct pdn_tag *tags;

    next(r); /* '[' */
    skip_space(r);
    name_start = r->pos;
    /* bytes of UTF-8 sequences too: Russian files name their tags in Cyrillic */
    while (!at_end(r) && (isalnum((unsigned char)peek(r)) || peek(r) == '_' ||
                          (unsigned char)peek(r) >= 0x80))
        next(r);
    name_end = r->pos;
    skip_space(r);
    if (name_end == name_start || peek(r) != '"') {
        game_error(g, r, "a broken tag: write it as [Name \"value\"]");
        skip_line(r);
        return 0;
    }
    next(r);
    start = r->pos;
    while (!at_end(r) && peek(r) != '"' && peek(r) != '\n')
        if (next(r) == '\\' && !at_end(r))
            next(r);
    end = r->pos;
    if (peek(r) != '"' || (next(r), skip_space(r), peek(r) != ']')) {
        game_error(g, r, "a broken tag: its value has no closing '\"' or the tag no ']'");
        skip_line(r);
        return 0;
    }
    if (!(value = malloc(end - start + 1)))
        return -1;
    for (size_t k = start; k < end; k++) { /* \" and \\ stand for " and \ */
        if (r->text[k] == '\\' && k + 1 < end)
            k++;
        value[length++] = r->text[k];
    }
    value[length] = '\0';
    next(r);
    name = copy(r->text + name_start, name_end - name_start);
    tags = realloc(g->tags, ((size_t)g->num_tags + 1) * sizeof *tags);
    if (!name || !tags) {
        free(name);
        free(value);
        if (tags)
            g->tags = tags;
        return -1;
    }
    g->tags = tags;
    g->tags[g->num_tags++] = (struct pdn_tag){ name, value };
    return 0;
}

/* {comment} or ; to the end of the line, added to the last move's comments (or the
 * game's, before the first move). */
static int read_comment(struct pdn_reader *r, struct pdn_game *g)
{
    char open = next(r), close = open == '{' ? '}' : '\n';
    size_t start = r->pos;
    char **comment = g->num_moves ? &g->moves[g->num_moves - 1].comment : &g->comment;

    while (!at_end(r) && peek(r) != close)
        next(r);
    if (at_end(r) && close == '}') {
        game_error(g, r, "a comment '{' is never closed with '}'");
        return 0;
    }
    if (add_comment(comment, r->text + start, r->pos - start) < 0)
        return -1;
    if (!at_end(r))
        next(r);
    return 0;
}

/* (a variation), nested or not, with the comments inside it: skipped. */
static void skip_variation(struct pdn_reader *r, struct pdn_game *g)
{
    int depth = 0;

    do {
        char c = next(r);
        if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        else if (c == '{')
            while (!at_end(r) && next(r) != '}')
                ;
    } while (depth > 0 && !at_end(r));
    if (depth > 0)
        game_error(g, r, "a variation '(' is never closed with ')'");
}

static bool is_result(const char *word, size_t length)
{
    for (size_t k = 0; k < sizeof results / sizeof results[0]; k++)
        if (strlen(results[k]) == length && strncmp(word, results[k], length) == 0)
            return true;
    return false;
}

/* A word of the move text: a result (ends the game: returns 1), a move number, a move
 * (with any !? marks dropped). Returns 0, or -1 when memory runs out. */
static int read_word(struct pdn_reader *r, struct pdn_game *g)
{
    const char *word = r->text + r->pos;
    size_t length = 0, skip = 0;
    struct pdn_move *moves;

    while (!at_end(r) && !isspace((unsigned char)peek(r)) && !strchr("{}();[]", peek(r)))
        next(r), length++;
    if (length == 0) { /* a stray '}', ')' or ']' */
        game_error(g, r, "an unexpected '%c'", peek(r));
        next(r);
        return 0;
    }
    if (is_result(word, length)) {
        snprintf(g->result, sizeof g->result, "%.*s", (int)length, word);
        return 1;
    }
    while (skip < length && isdigit((unsigned char)word[skip]))
        skip++;
    if (skip < length && word[skip] == '.') /* a move number: "12.", "12...", "12.32-28" */
        while (skip < length && word[skip] == '.')
            skip++;
    else
        skip = 0;
    while (length > skip && strchr("!?", word[length - 1]))
        length--;
    if (word[0] == '$' || length == skip) /* a NAG, or a move number alone */
        return 0;
    moves = realloc(g->moves, ((size_t)g->num_moves + 1) * sizeof *moves);
    if (!moves)
        return -1;
    g->moves = moves;
    g->moves[g->num_moves].comment = NULL;
    if (!(g->moves[g->num_moves].text = copy(word + skip, length - skip)))
        return -1;
    g->num_moves++;
    return 0;
}

/* A NUL byte in the game's text would cut the strings read from it short: the game
 * is refused, saying where (a file saved as UTF-16 is full of them). */
static void refuse_nul(struct pdn_game *g, const struct pdn_reader *r)
{
    const char *text = r->text + g->start;
    const char *nul = memchr(text, '\0', g->end - g->start);
    if (!nul)
        return;
    int line = g->line;
    for (const char *c = text; c < nul; c++)
        line += *c == '\n';
    g->error[0] = '\0'; /* the first fault, but this one explains the others */
    snprintf(g->error, sizeof g->error, "line %d: a NUL byte; PDN is text (a file saved as "
             "UTF-16 must be converted first: iconv -f UTF-16 -t UTF-8)", line);
}

int pdn_read_game(struct pdn_reader *r, struct pdn_game *g)
{
    bool started = false; /* a move, a result or a tag read: the game has begun */
    int status = 0;

    *g = (struct pdn_game){ .number = r->games + 1 };
    for (;;) {
        skip_space(r);
        if (at_end(r))
            break;
        if (!started) {
            g->line = r->line;
            g->start = r->pos;
        }
        char c = peek(r);
        if (c == '[' && g->num_moves > 0)
            break; /* the next game's tags: this one had no result */
        if (c == '%' && (r->pos == 0 || r->text[r->pos - 1] == '\n')) {
            skip_line(r); /* an escaped line, for other programs */
            continue;
        }
        started = true;
        if (c == '[')
            status = read_tag(r, g);
        else if (c == '{' || c == ';')
            status = read_comment(r, g);
        else if (c == '(')
            skip_variation(r, g);
        else
            status = read_word(r, g);
        if (status < 0)
            return -1;
        g->end = r->pos;
        if (status == 1) /* the result ends the game */
            break;
    }
    if (!started)
        return 0;
    refuse_nul(g, r);
    r->games++;
    return 1;
}

void pdn_game_free(struct pdn_game *g)
{
    for (int k = 0; k < g->num_tags; k++) {
        free(g->tags[k].name);
        free(g->tags[k].value);
    }
    for (int k = 0; k < g->num_moves; k++) {
        free(g->moves[k].text);
        free(g->moves[k].comment);
    }
    free(g->tags);
    free(g->moves);
    free(g->comment);
    *g = (struct pdn_game){ 0 };
}

const char *pdn_tag(const struct pdn_game *g, const char *name)
{
    for (int k = 0; k < g->num_tags; k++)
        if (strcmp(g->tags[k].name, name) == 0)
            return g->tags[k].value;
    return NULL;
}

/* ---- writing ---- */

void pdn_write_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (; *value; value++) {
        if (*value == '"' || *value == '\\')
            fputc('\\', out);
        fputc(*value, out);
    }
    fprintf(out, "\"]\n");
}

void pdn_writer_init(struct pdn_writer *w, FILE *out, bool second_first)
{
    *w = (struct pdn_writer){ .out = out, .second_first = second_first };
    fputc('\n', out); /* between the tags and the move text */
}

bool pdn_second_first(const damero_tb *tb, const damero_position *pos)
{
    damero_position start;
    return damero_start_position(tb, &start) == DAMERO_OK &&
           pos->side_to_move != start.side_to_move;
}

/* prefix, word (length bytes) and suffix as one word, on this line or, past the wrap
 * column, on the next. */
static void write_word(struct pdn_writer *w, const char *prefix, const char *word,
                       size_t length, const char *suffix)
{
    int width = (int)(strlen(prefix) + length + strlen(suffix));

    if (w->column > 0 && w->column + 1 + width > WRAP_COLUMN) {
        fputc('\n', w->out);
        w->column = 0;
    } else if (w->column > 0) {
        fputc(' ', w->out);
        w->column++;
    }
    fprintf(w->out, "%s%.*s%s", prefix, (int)length, word, suffix);
    w->column += width;
}

void pdn_move_number(bool second_first, int ply, char *number, size_t size)
{
    int index = ply + second_first; /* plies from the first move of a pair */
    snprintf(number, size, index % 2 == 0 ? "%d." : "%d...", index / 2 + 1);
}

bool pdn_numbered(bool second_first, int ply)
{
    return (ply + second_first) % 2 == 0 || ply == 0;
}

void pdn_write_gametype(FILE *out, int gametype)
{
    char code[16];
    if (gametype == 0)
        return;
    snprintf(code, sizeof code, "%d", gametype);
    pdn_write_tag(out, "GameType", code);
}

void pdn_write_move(struct pdn_writer *w, const char *text)
{
    char number[24];

    pdn_move_number(w->second_first, w->ply, number, sizeof number);
    if (pdn_numbered(w->second_first, w->ply) || w->after_comment)
        write_word(w, "", number, strlen(number), "");
    write_word(w, "", text, strlen(text), "");
    w->ply++;
    w->after_comment = false;
}

/* {text}, wrapped at its spaces like the moves. */
void pdn_write_comment(struct pdn_writer *w, const char *text)
{
    bool first = true;

    text += strspn(text, " ");
    while (*text) {
        size_t n = strcspn(text, " ");
        size_t gap = strspn(text + n, " ");
        write_word(w, first ? "{" : "", text, n, text[n + gap] == '\0' ? "}" : "");
        first = false;
        text += n + gap;
    }
    w->after_comment = true;
}

void pdn_write_end(struct pdn_writer *w, const char *result)
{
    if (!result || !*result)
        result = "*";
    write_word(w, "", result, strlen(result), "");
    fputs("\n\n", w->out);
}
