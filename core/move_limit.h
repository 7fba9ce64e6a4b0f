/* Move-limit draw rules, as data: what `damero verify` checks against the tables.
 *
 * Each variant's row lists its rules (variant.h). A rule covers some endings (a pattern
 * of material), may add a precondition on the position, and either demands a win within
 * a number of moves ("must win within N": the forzosa, three kings against one) or
 * counts moves without progress ("N moves without a capture or man move": a draw when
 * the count runs out). Where sources read the limit differently, the rule keeps each
 * reading, and the report answers under all of them. The rules, their sources and their
 * disagreements are in docs/rules.md. */
#ifndef DAMERO_MOVE_LIMIT_H
#define DAMERO_MOVE_LIMIT_H

#include <stdbool.h>

/* Which endings a rule covers. */
enum ending_kind {
    ENDING_VS_LONE_KING,    /* a strong side within the bounds below against one king */
    ENDING_MATERIAL,        /* exactly one material */
    ENDING_KINGS_ONLY,      /* no man on the board */
    ENDING_BOTH_HAVE_KINGS, /* each side has at least one king */
    ENDING_ANY,             /* every ending */
};

struct ending {
    enum ending_kind kind;
    /* ENDING_VS_LONE_KING: the strong side's pieces, kings and men */
    int min_pieces, max_pieces, min_kings, max_men;
    const char *material;   /* ENDING_MATERIAL: its name, strong side first ("KKMvKM") */
    int min_total, max_total; /* pieces on the board, when not 0 */
    const char *words;      /* "3 or more kings against 1 king" */
};

/* What must hold in a position for the rule to apply, beyond its material. The strong
 * side is the one with more pieces; squares are in the variant's numbering, as seen by
 * the strong side when it is White (mirrored when it is Black). */
struct precondition {
    bool strong_king_on_main_diagonal; /* a strong king holds the long diagonal */
    bool lone_king_on_main_diagonal;   /* the weak side's king stands on it */
    int strong_man_square, weak_man_square; /* a man of that side there; 0: no condition */
    const char *words;                 /* NULL when there is no precondition */
};

enum limit_kind {
    LIMIT_WIN_WITHIN,      /* the strong side must win within the limit, else a draw */
    LIMIT_NO_PROGRESS,     /* a draw after the limit without the count being reset */
};

enum limit_unit {
    UNIT_STRONG_MOVES,     /* moves of the strong side, the winning move included */
    UNIT_MOVES_EACH,       /* moves of each side: twice as many plies */
    UNIT_PLIES,            /* single moves of either side */
};

/* What resets (no-progress rules) or ends the count. */
enum count_reset {
    RESET_NONE,                /* win-within rules: only the win ends the count */
    RESET_CAPTURE_OR_MAN_MOVE, /* what the tables' MTC measures */
    RESET_CAPTURE_OR_PROMOTION,
};

/* One reading of a rule's limit, with who reads it so. */
struct limit_reading {
    int limit;
    enum limit_unit unit;
    const char *source;
};

#define MAX_READINGS 2

struct move_limit_rule {
    const char *name;                 /* short, for the report: "forzosa" */
    const char *words;                /* the rule in a sentence */
    struct ending ending;
    struct precondition precondition;
    bool counts_from_precondition;    /* the count starts when the precondition is first
                                         met (the forzosa), not when the ending arises */
    enum limit_kind kind;
    enum count_reset reset;
    struct limit_reading readings[MAX_READINGS]; /* limit 0: no second reading */
};

/* How many readings the rule has (1 or 2). */
static inline int move_limit_readings(const struct move_limit_rule *rule)
{
    return rule->readings[1].limit ? 2 : 1;
}

/* The limit of a reading in plies from a position where the strong side (the side that
 * must make progress, for a no-progress rule: the winner) is or is not to move: a win by
 * the strong side's N-th move is 2N - 1 plies away when it moves first, 2N when the
 * other side does; N moves each without progress are 2N plies. */
int reading_plies(const struct limit_reading *r, enum limit_kind kind, bool strong_to_move);

/* A number of plies in a unit: moves (of the strong side, or each) are the strong
 * side's moves among them. */
int plies_in_unit(int plies, enum limit_unit unit, bool strong_to_move);

/* A unit in words: "moves of the strong side", "moves each", "plies". */
const char *unit_words(enum limit_unit unit);

#endif
