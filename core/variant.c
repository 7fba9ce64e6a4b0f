#include "variant.h"

#include <string.h>

/* Sources: ../shared/RULES.md (FMJD rules, the national federations' rules and the
 * user's documents, with their disagreements resolved there). */

#define MOST_PIECES PRECEDENCE_MOST_PIECES
#define WITH_KING PRECEDENCE_WITH_KING
#define MOST_KINGS PRECEDENCE_MOST_KINGS
#define KING_FIRST PRECEDENCE_KING_FIRST

/* Numbered notation as on an English board: from the top, left to right, b8 (b10) = 1. */
#define NUMBERED_FROM_TOP_LEFT .algebraic = false, .mirrored = false, \
    .number_from_top = true, .number_left_to_right = true
/* Algebraic squares; the numbering order (used for sorting) runs a1, c1, ..., h8. */
#define ALGEBRAIC .algebraic = true, .mirrored = false, \
    .number_from_top = false, .number_left_to_right = true

const struct variant variants[] = {
    { .name = "international", .title = "International draughts (FMJD)", .pdn_gametype = 20,
      .board = geometry_10x10, .men_per_side = 20, .first_to_move = WHITE,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = MOST_PIECES, NUMBERED_FROM_TOP_LEFT },
    { .name = "brazilian", .title = "Brazilian draughts", .pdn_gametype = 26,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = MOST_PIECES, ALGEBRAIC },
    { .name = "russian", .title = "Russian draughts (shashki)", .pdn_gametype = 25,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = true, .precedence = 0, ALGEBRAIC },
    { .name = "pool", .title = "American pool checkers", .pdn_gametype = 23,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = BLACK,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = 0, NUMBERED_FROM_TOP_LEFT },
    { .name = "spanish", .title = "Spanish draughts", .pdn_gametype = 24,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = false, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = MOST_PIECES | MOST_KINGS,
      .mirrored = true, .number_from_top = false, .number_left_to_right = false },
    { .name = "czech", .title = "Czech draughts", .pdn_gametype = 29,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = false, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = WITH_KING, ALGEBRAIC },
    { .name = "italian", .title = "Italian draughts", .pdn_gametype = 22,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = false, .flying_kings = false, .men_capture_kings = false,
      .promote_mid_capture = false,
      .precedence = MOST_PIECES | WITH_KING | MOST_KINGS | KING_FIRST,
      .mirrored = true, .number_from_top = true, .number_left_to_right = true },
    { .name = "english", .title = "English draughts (checkers)", .pdn_gametype = 21,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = BLACK,
      .men_capture_backward = false, .flying_kings = false, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = 0, NUMBERED_FROM_TOP_LEFT },
    { .name = "poddavki", .title = "Poddavki (Russian giveaway)", .pdn_gametype = 0,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = true, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = true, .precedence = 0, .giveaway = true, ALGEBRAIC },
    { .name = "ganapierde", .title = "Ganapierde (Spanish giveaway)", .pdn_gametype = 0,
      .board = geometry_8x8, .men_per_side = 12, .first_to_move = WHITE,
      .men_capture_backward = false, .flying_kings = true, .men_capture_kings = true,
      .promote_mid_capture = false, .precedence = MOST_PIECES | MOST_KINGS, .giveaway = true,
      .mirrored = true, .number_from_top = false, .number_left_to_right = false },
    { .name = NULL },
};

const struct variant *variant_by_name(const char *name)
{
    for (const struct variant *v = variants; name && v->name; v++)
        if (strcmp(v->name, name) == 0)
            return v;
    return NULL;
}
