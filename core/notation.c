#include "core/notation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file as the player sees it: mirrored variants are played on the other colour. */
static int shown_file(const struct variant *v, const struct geometry *g, int file)
{
    return v->mirrored ? g->files - 1 - file : file;
}

/* An order in which squares are numbered 1..N. */
struct numbering {
    bool from_top, left_to_right;
};

/* Walks the board in numbering order; returns the bit of square `number`, or the number
 * of square `bit` (whichever is asked for, the other being 0 / -1). */
static int walk_numbering(const struct variant *v, struct numbering order, int number, int bit)
{
    const struct geometry *g = v->board();
    int n = 0;

    for (int i = 0; i < g->ranks; i++) {
        int rank = order.from_top ? g->ranks - 1 - i : i;
        for (int j = 0; j < g->files; j++) {
            int shown = order.left_to_right ? j : g->files - 1 - j;
            int b = geometry_bit_at(g, shown_file(v, g, shown), rank);
            if (b < 0)
                continue;
            n++;
            if (n == number)
                return b;
            if (b == bit)
                return n;
        }
    }
    return -1;
}

static struct numbering own_numbering(const struct variant *v)
{
    return (struct numbering){ v->number_from_top, v->number_left_to_right };
}

/* Where programs write numbers on an algebraic board (Russian ones, in their FENs), they
 * number it as PDN numbers the English board: from the top, left to right (b8 = 1 on
 * 8x8, a1 = 29). */
static const struct numbering pdn_numbering = { true, true };

int square_number(const struct variant *v, int bit)
{
    return walk_numbering(v, own_numbering(v), 0, bit);
}

int square_from_number(const struct variant *v, int n)
{
    return n < 1 ? -1 : walk_numbering(v, own_numbering(v), n, -1);
}

/* The square written as the number text[0..len), or -1. */
static int parse_number(const struct variant *v, struct numbering order, const char *text,
                        size_t len)
{
    int value = 0;
    if (len < 1 || len > 2)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)text[i]))
            return -1;
        value = value * 10 + (text[i] - '0');
    }
    return value < 1 ? -1 : walk_numbering(v, order, value, -1);
}

void square_name(const struct variant *v, int bit, char name[SQUARE_NAME_SIZE])
{
    const struct geometry *g = v->board();

    if (v->algebraic) {
        name[0] = (char)('a' + shown_file(v, g, g->file_of[bit]));
        snprintf(name + 1, SQUARE_NAME_SIZE - 1, "%d", g->rank_of[bit] + 1);
    } else
        snprintf(name, SQUARE_NAME_SIZE, "%d", square_number(v, bit));
}

int square_parse(const struct variant *v, const char *text, size_t len)
{
    const struct geometry *g = v->board();
    int value = 0;

    if (v->algebraic && len > 0 && isdigit((unsigned char)text[0]))
        return parse_number(v, pdn_numbering, text, len);
    if (v->algebraic) {
        if (len < 2 || len > 3 || text[0] < 'a' || text[0] >= 'a' + g->files)
            return -1;
        for (size_t i = 1; i < len; i++) {
            if (!isdigit((unsigned char)text[i]))
                return -1;
            value = value * 10 + (text[i] - '0');
        }
        return geometry_bit_at(g, shown_file(v, g, text[0] - 'a'), value - 1);
    }
    return parse_number(v, own_numbering(v), text, len);
}

/* ---- FEN --------------------------------------------------------------------------- */

struct fen_reader {
    const struct variant *v;
    const char *text;
    size_t pos;
    char *err;
    size_t err_size;
};

static int fen_error(struct fen_reader *r, const char *what)
{
    snprintf(r->err, r->err_size, "bad FEN at column %zu: %s", r->pos + 1, what);
    return -1;
}

static void skip_spaces(struct fen_reader *r)
{
    while (isspace((unsigned char)r->text[r->pos]))
        r->pos++;
}

static int read_colour(struct fen_reader *r, enum side *s)
{
    char c = r->text[r->pos];

    if (c != 'W' && c != 'B')
        return fen_error(r, "expected W or B");
    *s = c == 'W' ? WHITE : BLACK;
    r->pos++;
    return 0;
}

/* Reads a square token (digits or letter+digits) and returns its bit. */
static int read_square(struct fen_reader *r, int *bit)
{
    size_t start = r->pos;
    char msg[96];

    while (isalnum((unsigned char)r->text[r->pos]))
        r->pos++;
    if (r->pos == start)
        return fen_error(r, "expected a square");
    *bit = square_parse(r->v, r->text + start, r->pos - start);
    if (*bit < 0) {
        int len = (int)(r->pos - start);
        r->pos = start;
        snprintf(msg, sizeof msg, "'%.*s' is not a square of the %s board", len,
                 r->text + start, r->v->name);
        return fen_error(r, msg);
    }
    return 0;
}

static int place(struct fen_reader *r, struct position *p, enum side s, bool king, int bit,
                 bb_t *seen)
{
    char name[SQUARE_NAME_SIZE], msg[64];

    if (*seen & bb_of(bit)) {
        square_name(r->v, bit, name);
        snprintf(msg, sizeof msg, "square %s is used twice", name);
        return fen_error(r, msg);
    }
    *seen |= bb_of(bit);
    if (king)
        p->kings[s] |= bb_of(bit);
    else
        p->men[s] |= bb_of(bit);
    return 0;
}

/* Reads one side's list: K?square or square-square ranges, separated by commas. */
static int read_pieces(struct fen_reader *r, struct position *p, enum side s, bb_t *seen)
{
    bool after_comma = false;

    for (;;) {
        bool king = false;
        int first, last;

        skip_spaces(r);
        if (!after_comma &&
            (r->text[r->pos] == ':' || r->text[r->pos] == '.' || r->text[r->pos] == '\0'))
            return 0;
        if (r->text[r->pos] == 'K') {
            king = true;
            r->pos++;
        }
        if (read_square(r, &first) < 0)
            return -1;
        last = first;
        if (r->text[r->pos] == '-') {
            r->pos++;
            if (r->v->algebraic)
                return fen_error(r, "ranges are written only with numbered squares");
            if (read_square(r, &last) < 0)
                return -1;
            if (square_number(r->v, last) < square_number(r->v, first))
                return fen_error(r, "a range must go from the lower to the higher number");
        }
        for (int n = square_number(r->v, first); n <= square_number(r->v, last); n++)
            if (place(r, p, s, king, square_from_number(r->v, n), seen) < 0)
                return -1;
        skip_spaces(r);
        after_comma = r->text[r->pos] == ',';
        if (after_comma)
            r->pos++;
        else if (r->text[r->pos] != ':' && r->text[r->pos] != '.' && r->text[r->pos] != '\0')
            return fen_error(r, "expected ',' or ':' after a square");
    }
}

int fen_parse(const struct variant *v, const char *fen, struct position *p, char *err,
              size_t err_size)
{
    struct fen_reader r = { .v = v, .text = fen, .err = err, .err_size = err_size };
    struct position parsed = { 0 };
    bool listed[2] = { false, false };
    bb_t seen = 0;

    skip_spaces(&r);
    if (fen[r.pos] == '\0')
        return fen_error(&r, "the FEN is empty");
    if (read_colour(&r, &parsed.side) < 0)
        return -1;
    while (skip_spaces(&r), fen[r.pos] == ':') {
        enum side s;
        r.pos++;
        skip_spaces(&r);
        if (read_colour(&r, &s) < 0)
            return -1;
        if (listed[s])
            return fen_error(&r, "a colour's pieces are listed twice");
        listed[s] = true;
        if (read_pieces(&r, &parsed, s, &seen) < 0)
            return -1;
    }
    if (fen[r.pos] == '.')
        r.pos++;
    skip_spaces(&r);
    if (fen[r.pos] != '\0')
        return fen_error(&r, "unexpected text after the position");
    if (position_validate(v, &parsed, err, err_size) < 0)
        return -1;
    *p = parsed;
    return 0;
}

/* Appends one side's pieces in increasing square number. */
static size_t print_side(const struct variant *v, const struct position *p, enum side s,
                         char *out, size_t size)
{
    const struct geometry *g = v->board();
    size_t len = (size_t)snprintf(out, size, ":%c", s == WHITE ? 'W' : 'B');
    bool first = true;

    for (int n = 1; n <= g->num_squares; n++) {
        int bit = square_from_number(v, n);
        bool king = (p->kings[s] & bb_of(bit)) != 0;
        char name[SQUARE_NAME_SIZE];
        if (!(position_pieces(p, s) & bb_of(bit)))
            continue;
        square_name(v, bit, name);
        len += (size_t)snprintf(out + len, size - len, "%s%s%s", first ? "" : ",",
                                king ? "K" : "", name);
        first = false;
    }
    return len;
}

void fen_print(const struct variant *v, const struct position *p, char fen[FEN_SIZE])
{
    size_t len = (size_t)snprintf(fen, FEN_SIZE, "%c", p->side == WHITE ? 'W' : 'B');

    len += print_side(v, p, WHITE, fen + len, FEN_SIZE - len);
    print_side(v, p, BLACK, fen + len, FEN_SIZE - len);
}

void move_text(const struct variant *v, const struct move *m, char text[MOVE_TEXT_SIZE])
{
    char name[SQUARE_NAME_SIZE];
    char sep = m->num_jumps == 0 ? '-' : v->capture_mark;
    size_t len;

    square_name(v, m->from, name);
    len = (size_t)snprintf(text, MOVE_TEXT_SIZE, "%s", name);
    if (m->num_jumps == 0) {
        square_name(v, m->to, name);
        snprintf(text + len, MOVE_TEXT_SIZE - len, "%c%s", sep, name);
        return;
    }
    for (int i = 0; i < m->num_jumps; i++) {
        square_name(v, m->landing[i], name);
        len += (size_t)snprintf(text + len, MOVE_TEXT_SIZE - len, "%c%s", sep, name);
    }
}
