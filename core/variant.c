#include "core/variant.h"

#include <string.h>

/* The rules, their sources and how disagreements between sources were resolved are in
 * docs/rules.md; each row below follows it. */

#define MOST_PIECES PRECEDENCE_MOST_PIECES
#define WITH_KING PRECEDENCE_WITH_KING
#define MOST_KINGS PRECEDENCE_MOST_KINGS
#define KING_FIRST PRECEDENCE_KING_FIRST

/* Numbered notation as on an English board: from the top, left to right, b8 (b10) = 1. */
#define NUMBERED_FROM_TOP_LEFT .algebraic = false, .capture_mark = 'x', .mirrored = false, \
    .number_from_top = true, .number_left_to_right = true
/* Numbered notation on the mirrored board (spanish, italian, ganapierde). */
#define NUMBERED_MIRRORED .algebraic = false, .capture_mark = 'x', .mirrored = true
/* Algebraic squares; the numbering order (used for sorting, and for the squares' numbers
 * in damero.h) runs a1, c1, ..., h8 (a1, b1, ..., h8 on the orthogonal board). */
#define ALGEBRAIC .algebraic = true, .mirrored = false, \
    .number_from_top = false, .number_left_to_right = true


/* The move-limit rules (docs/rules.md, "Move-limit draw rules"). Each reading names its
 * source as the report prints it. */

#define VS_LONE_KING(lo, hi, kings, men, text) \
    { .kind = ENDING_VS_LONE_KING, .min_pieces = lo, .max_pieces = hi, .min_kings = kings, \
      .max_men = men, .words = text }
#define NO_PROGRESS_RESET_BY_CAPTURE_OR_MAN_MOVE \
    .kind = LIMIT_NO_PROGRESS, .reset = RESET_CAPTURE_OR_MAN_MOVE

static const struct move_limit_rule spanish_limits[] = {
    { .name = "forzosa",
      .words = "Three kings, one holding the main diagonal, against one king must win within "
               "12 moves of the strong side, the capture included, counted from occupying "
               "the diagonal.",
      .ending = VS_LONE_KING(3, 3, 3, 0, "3 kings against 1 king"),
      .precondition = { .strong_king_on_main_diagonal = true,
                        .words = "a strong king on the main diagonal" },
      .counts_from_precondition = true, .kind = LIMIT_WIN_WITHIN,
      .readings = { { 12, UNIT_STRONG_MOVES, "the encyclopedia article «Damas», rule 26.1" },
                    { 13, UNIT_STRONG_MOVES,
                      "the rules page «Reglas de las Damas Españolas»" } } },
    { .name = "saque de peon",
      .words = "Two kings holding the main diagonal and a man on 2, against a king and a man "
               "on 9, must within 32 moves win, promote the man or capture the other.",
      .ending = { .kind = ENDING_MATERIAL, .material = "KKMvKM",
                  .words = "2 kings and a man against a king and a man" },
      .precondition = { .strong_king_on_main_diagonal = true, .strong_man_square = 2,
                        .weak_man_square = 9,
                        .words = "a strong king on the main diagonal, the men on 2 and 9" },
      .kind = LIMIT_NO_PROGRESS, .reset = RESET_CAPTURE_OR_PROMOTION,
      .readings = { { 32, UNIT_STRONG_MOVES, "the encyclopedia article «Damas», rule 26.2" } } },
    { .name = "40 plies",
      .words = "A draw after 40 plies (20 moves each) without a capture or a man move.",
      .ending = { .kind = ENDING_ANY, .words = "every ending" },
      NO_PROGRESS_RESET_BY_CAPTURE_OR_MAN_MOVE,
      .readings = { { 40, UNIT_PLIES, "the rules page «Reglas de las Damas Españolas»" } } },
    { .name = NULL },
};

static const struct move_limit_rule russian_limits[] = {
    { .name = "3 kings v 1",
      .words = "Three or more kings against one king: the strong side's 15th move must "
               "capture the king.",
      .ending = VS_LONE_KING(3, 12, 3, 0, "3 or more kings against 1 king"),
      .kind = LIMIT_WIN_WITHIN,
      .readings = { { 15, UNIT_STRONG_MOVES,
                      "a Russian draughts rules guide; FMJD-64 rules 7.2.4" },
                    { 15, UNIT_PLIES, "a per-ply reading of the same text" } } },
    { .name = "main road",
      .words = "The same with the lone king on the main road (a1-h8): 5 moves.",
      .ending = VS_LONE_KING(3, 12, 3, 0, "3 or more kings against 1 king"),
      .precondition = { .lone_king_on_main_diagonal = true,
                        .words = "the lone king on the main road" },
      .kind = LIMIT_WIN_WITHIN,
      .readings = { { 5, UNIT_STRONG_MOVES, "a Russian draughts rules guide; FMJD-64 rules 7.2.7" },
                    { 5, UNIT_PLIES, "a per-ply reading" } } },
    { .name = "2 pieces v 1 king",
      .words = "Two pieces or fewer (a king among them) against one king: 5 moves.",
      .ending = VS_LONE_KING(1, 2, 1, 1, "2 pieces or fewer against 1 king"),
      .kind = LIMIT_WIN_WITHIN,
      .readings = { { 5, UNIT_STRONG_MOVES, "FMJD-64 rules 7.2.8" },
                    { 5, UNIT_PLIES, "a per-ply reading" } } },
    { .name = "kings only 15",
      .words = "Kings only: a draw after 15 moves without a capture.",
      .ending = { .kind = ENDING_KINGS_ONLY, .words = "kings only" },
      NO_PROGRESS_RESET_BY_CAPTURE_OR_MAN_MOVE,
      .readings = { { 15, UNIT_MOVES_EACH, "FMJD-64 rules 7.2.5" },
                    { 15, UNIT_PLIES, "a per-ply reading" } } },
    { .name = "kings 30",
      .words = "Both sides with kings, 4 or 5 pieces: a draw after 30 moves without a "
               "capture or a promotion.",
      .ending = { .kind = ENDING_BOTH_HAVE_KINGS, .min_total = 4, .max_total = 5,
                  .words = "both sides with kings, 4 or 5 pieces" },
      .kind = LIMIT_NO_PROGRESS, .reset = RESET_CAPTURE_OR_PROMOTION,
      .readings = { { 30, UNIT_MOVES_EACH, "FMJD-64 rules 7.2.6" },
                    { 30, UNIT_PLIES, "a per-ply reading" } } },
    { .name = "kings 60",
      .words = "Both sides with kings, 6 or 7 pieces: a draw after 60 moves without a "
               "capture or a promotion.",
      .ending = { .kind = ENDING_BOTH_HAVE_KINGS, .min_total = 6, .max_total = 7,
                  .words = "both sides with kings, 6 or 7 pieces" },
      .kind = LIMIT_NO_PROGRESS, .reset = RESET_CAPTURE_OR_PROMOTION,
      .readings = { { 60, UNIT_MOVES_EACH, "FMJD-64 rules 7.2.6" },
                    { 60, UNIT_PLIES, "a per-ply reading" } } },
    { .name = NULL },
};

static const struct move_limit_rule international_limits[] = {
    { .name = "3 pieces v 1 king",
      .words = "Three kings, two kings and a man, or a king and two men against one king: "
               "16 moves each.",
      .ending = VS_LONE_KING(3, 3, 1, 2, "3 pieces (a king among them) against 1 king"),
      .kind = LIMIT_WIN_WITHIN,
      .readings = { { 16, UNIT_MOVES_EACH, "FMJD rules, article 6.3" } } },
    { .name = "2 pieces v 1 king",
      .words = "Two kings, a king and a man, or one king against one king: 5 moves each.",
      .ending = VS_LONE_KING(1, 2, 1, 1, "2 pieces or fewer against 1 king"),
      .kind = LIMIT_WIN_WITHIN,
      .readings = { { 5, UNIT_MOVES_EACH, "FMJD rules, article 6.4" } } },
    { .name = "kings only 25",
      .words = "Kings only: a draw after 25 moves each without a capture.",
      .ending = { .kind = ENDING_KINGS_ONLY, .words = "kings only" },
      NO_PROGRESS_RESET_BY_CAPTURE_OR_MAN_MOVE,
      .readings = { { 25, UNIT_MOVES_EACH, "FMJD rules, article 6.2" } } },
    { .name = NULL },
};

static const struct move_limit_rule brazilian_limits[] = {
    { .name = "king moves 20",
      .words = "A draw after 20 moves of kings only, without a capture or a man move.",
      .ending = { .kind = ENDING_ANY, .words = "every ending" },
      NO_PROGRESS_RESET_BY_CAPTURE_OR_MAN_MOVE,
      .readings = { { 20, UNIT_MOVES_EACH, "Brazilian rules, rule 16" } } },
    { .name = NULL },
};

static const struct move_limit_rule pool_limits[] = {
    { .name = "3 kings v 1",
      .words = "Three kings against one king must win within 13 moves.",
      .ending = VS_LONE_KING(3, 3, 3, 0, "3 kings against 1 king"),
      .kind = LIMIT_WIN_WITHIN,
      .readings = { { 13, UNIT_STRONG_MOVES, "APCA rules of play" } } },
    { .name = NULL },
};

static const struct move_limit_rule czech_limits[] = {
    { .name = "15 moves",
      .words = "A draw after 15 moves without a capture or a man move.",
      .ending = { .kind = ENDING_ANY, .words = "every ending" },
      NO_PROGRESS_RESET_BY_CAPTURE_OR_MAN_MOVE,
      .readings = { { 15, UNIT_MOVES_EACH, "Czech rules (FMJD summary)" } } },
    { .name = NULL },
};

static const struct move_limit_rule english_limits[] = {
    { .name = "40 moves",
      .words = "A draw after 40 moves each without a capture or a man advanced.",
      .ending = { .kind = ENDING_ANY, .words = "every ending" },
      NO_PROGRESS_RESET_BY_CAPTURE_OR_MAN_MOVE,
      .readings = { { 40, UNIT_MOVES_EACH, "WCDF rules of draughts" } } },
    { .name = NULL },
};

static const struct move_limit_rule no_limits[] = { { .name = NULL } };

const struct variant variants[] = {
    { .name = "international", .title = "International draughts (FMJD)", .pdn_gametype = 20,
      .board = geometry_10x10, .men_per_side = 20, .first_to_move = WHITE,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = MOST_PIECES, NUMBERED_FROM_TOP_LEFT,
      .move_limits = international_limits },
    { .name = "brazilian", .title = "Brazilian draughts", .pdn_gametype = 26,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = MOST_PIECES, ALGEBRAIC,
      .capture_mark = ':', .move_limits = brazilian_limits },
    { .name = "russian", .title = "Russian draughts (shashki)", .pdn_gametype = 25,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = true, .precedence = 0, ALGEBRAIC,
      .capture_mark = ':', .move_limits = russian_limits },
    { .name = "pool", .title = "American pool checkers", .pdn_gametype = 23,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = BLACK,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = 0, NUMBERED_FROM_TOP_LEFT,
      .move_limits = pool_limits },
    { .name = "spanish", .title = "Spanish draughts", .pdn_gametype = 24,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = false, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = MOST_PIECES | MOST_KINGS,
      NUMBERED_MIRRORED, .number_from_top = false, .number_left_to_right = false,
      .move_limits = spanish_limits },
    { .name = "czech", .title = "Czech draughts", .pdn_gametype = 29,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = false, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = WITH_KING, ALGEBRAIC,
      .capture_mark = ':', .move_limits = czech_limits },
    { .name = "italian", .title = "Italian draughts", .pdn_gametype = 22,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = false, .flying_kings = false, .men_capture_kings = false,
      .promote_mid_capture = false,
      .precedence = MOST_PIECES | WITH_KING | MOST_KINGS | KING_FIRST,
      NUMBERED_MIRRORED, .number_from_top = true, .number_left_to_right = true,
      .move_limits = no_limits },
    { .name = "english", .title = "English draughts (checkers)", .pdn_gametype = 21,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = BLACK,
      .men_capture_backward = false, .flying_kings = false, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = 0, NUMBERED_FROM_TOP_LEFT,
      .move_limits = english_limits },
    { .name = "poddavki", .title = "Poddavki (Russian giveaway)", .pdn_gametype = 0,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = true, .precedence = 0, .giveaway = true, ALGEBRAIC,
      .capture_mark = ':', .move_limits = no_limits },
    { .name = "ganapierde", .title = "Ganapierde (Spanish giveaway)", .pdn_gametype = 0,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = false, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = MOST_PIECES | MOST_KINGS, .giveaway = true,
      NUMBERED_MIRRORED, .number_from_top = false, .number_left_to_right = false,
      .move_limits = no_limits },
    /* The orthogonal variant: every square used, men step forward or sideways, captured
     * pieces lifted one by one; docs/rules.md, section 8 gives each clause its sources. */
    { .name = "turkish", .title = "Turkish draughts (dama)", .pdn_gametype = 30,
      .board = geometry_8x8_orthogonal, .men_per_side = 16, .men_first_rank = 1,
      .first_to_move = WHITE, .men_capture_backward = false, .flying_kings = true,
      .men_capture_kings = true, .promote_mid_capture = true, .precedence = MOST_PIECES,
      .remove_captured_at_once = true, .no_capture_reversal = true,
      .lone_pieces = LONE_PIECES_DRAW, ALGEBRAIC, .capture_mark = 'x',
      .move_limits = no_limits },
    { .name = NULL },
};

const struct variant *variant_by_name(const char *name)
{
    for (const struct variant *v = variants; name && v->name; v++)
        if (strcmp(v->name, name) == 0)
            return v;
    return NULL;
}
