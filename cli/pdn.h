/* Portable Draughts Notation: reading the games of a PDN file (tags, the main line's
 * moves as written, comments; variations, NAGs and move numbers skipped), and writing a
 * game back. What `damero annotate` and `damero line --pdn` use. */
#ifndef DAMERO_CLI_PDN_H
#define DAMERO_CLI_PDN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "probe/damero.h"

/* Comments that begin with this are damero's own: a reader drops them, so that
 * annotating an annotated game gives the same text again. */
#define PDN_OWN_COMMENT "damero:"

struct pdn_tag {
    char *name, *value;
};

/* One move of the main line, as written ("32-28", "28x19", "c3:e5"), and the comments
 * that followed it, joined by a space (NULL when none). */
struct pdn_move {
    char *text;
    char *comment;
};

struct pdn_game {
    int number;            /* from 1, in the order of the file */
    int line;              /* the line of the file it starts on */
    size_t start, end;     /* its text in the file: from its first character to its last */
    struct pdn_tag *tags;
    int num_tags;
    char *comment;         /* the comments before the first move, or NULL */
    struct pdn_move *moves;
    int num_moves;
    char result[16];       /* "1-0", "2-0", "1/2-1/2", "*", ...; "" when none was written */
    char error[256];       /* why the game cannot be read ("" when it can) */
};

struct pdn_reader {
    const char *text;
    size_t size, pos;
    int line;
    int games;
};

void pdn_reader_init(struct pdn_reader *r, const char *text, size_t size);

/* Reads the next game into g (which pdn_game_free must free, whatever the result).
 * A game that cannot be read (a broken tag, a comment never closed, a NUL byte) comes
 * with g->error set, and the reader goes on after it. Returns 1 for a game, 0 at the end of the text,
 * -1 when memory runs out. */
int pdn_read_game(struct pdn_reader *r, struct pdn_game *g);

void pdn_game_free(struct pdn_game *g);

/* The value of the tag called name, or NULL. */
const char *pdn_tag(const struct pdn_game *g, const char *name);

/* Writes [name "value"], escaping '"' and '\'. */
void pdn_write_tag(FILE *out, const char *name, const char *value);

/* Writes [GameType "N"], PDN's code of the rules, where the variant has one (gametype 0:
 * nothing). */
void pdn_write_gametype(FILE *out, int gametype);

/* Writes move text wrapped at 79 columns. */
struct pdn_writer {
    FILE *out;
    int column;
    int ply;              /* the next move's, from 0 */
    bool second_first;    /* the first move written is the second of its numbered pair */
    bool after_comment;   /* the next move needs its number again: "12..." */
};

/* Moves are numbered in pairs, a pair starting with a move of the side the variant's
 * rules let move first (White, or Black in pool and english checkers): "12. 32-28 19-23".
 * second_first: the first move written is the second of its pair ("1... 19-23"). */
void pdn_writer_init(struct pdn_writer *w, FILE *out, bool second_first);

/* Whether a game from pos starts with the second move of a pair: the side to move is
 * not the one the variant's rules let move first. */
bool pdn_second_first(const damero_tb *tb, const damero_position *pos);
/* The number written before the move of ply `ply` (from 0) of a game, second_first as
 * above: "12." before the first move of a pair, "12..." before the second. */
void pdn_move_number(bool second_first, int ply, char *number, size_t size);

/* Whether the move of ply `ply` is written with its number in a line of moves: the first
 * move of each pair, and the first move of all. */
bool pdn_numbered(bool second_first, int ply);

void pdn_write_move(struct pdn_writer *w, const char *text);
void pdn_write_comment(struct pdn_writer *w, const char *text);
/* Writes the result (or "*") and ends the game with a blank line. */
void pdn_write_end(struct pdn_writer *w, const char *result);

#endif
