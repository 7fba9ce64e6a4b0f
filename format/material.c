#include "format/material.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int material_parse(const struct variant *v, const char *text, struct material *m, char *err,
                   size_t err_size)
{
    struct material parsed = { { 0, 0 }, { 0, 0 } };
    const char *sep = strchr(text, 'v');
    int side = WHITE;

    if (!sep || strchr(sep + 1, 'v')) {
        snprintf(err, err_size,
                 "'%s' is not a material: write White's pieces, 'v', Black's (like KKMvK, "
                 "K = king, M = man)", text);
        return -1;
    }
    for (const char *c = text; *c; c++) {
        if (*c == 'v') {
            side = BLACK;
        } else if (*c == 'K' && parsed.men[side] == 0) {
            parsed.kings[side]++;
        } else if (*c == 'M') {
            parsed.men[side]++;
        } else {
            snprintf(err, err_size, "'%s' is not a material: unexpected '%c' (write kings "
                     "before men, like KKMvK)", text, *c);
            return -1;
        }
    }
    for (int s = WHITE; s <= BLACK; s++) {
        int n = material_side_pieces(&parsed, (enum side)s);
        if (n == 0) {
            snprintf(err, err_size, "'%s': %s needs at least one piece", text,
                     s == WHITE ? "White" : "Black");
            return -1;
        }
        if (n > v->men_per_side) {
            snprintf(err, err_size, "'%s': %d pieces for one side, %s has %d", text, n,
                     v->name, v->men_per_side);
            return -1;
        }
    }
    if (material_pieces(&parsed) > MATERIAL_MAX_PIECES) {
        snprintf(err, err_size, "'%s': more than %d pieces", text, MATERIAL_MAX_PIECES);
        return -1;
    }
    *m = parsed;
    return 0;
}

void material_name(const struct material *m, char name[MATERIAL_NAME_SIZE])
{
    char *out = name;
    for (int s = WHITE; s <= BLACK; s++) {
        if (s == BLACK)
            *out++ = 'v';
        for (int i = 0; i < m->kings[s]; i++)
            *out++ = 'K';
        for (int i = 0; i < m->men[s]; i++)
            *out++ = 'M';
    }
    *out = '\0';
}

struct material material_of(const struct position *p)
{
    struct material m;
    for (int s = WHITE; s <= BLACK; s++) {
        m.kings[s] = bb_count(p->kings[s]);
        m.men[s] = bb_count(p->men[s]);
    }
    return m;
}

struct material material_flipped(const struct material *m)
{
    return (struct material){ { m->kings[BLACK], m->kings[WHITE] },
                              { m->men[BLACK], m->men[WHITE] } };
}

/* Strength of one side for the orientation: pieces first, then kings. */
static int strength(const struct material *m, enum side s)
{
    return 16 * material_side_pieces(m, s) + m->kings[s];
}

bool material_is_canonical(const struct material *m)
{
    return strength(m, WHITE) >= strength(m, BLACK);
}

bool material_is_symmetric(const struct material *m)
{
    struct material f = material_flipped(m);
    return material_equal(m, &f);
}

int material_compare(const struct material *a, const struct material *b)
{
    char na[MATERIAL_NAME_SIZE], nb[MATERIAL_NAME_SIZE];
    if (material_pieces(a) != material_pieces(b))
        return material_pieces(a) - material_pieces(b);
    if (material_men(a) != material_men(b))
        return material_men(a) - material_men(b);
    material_name(a, na);
    material_name(b, nb);
    return strcmp(na, nb);
}

static int compare_entries(const void *a, const void *b)
{
    return material_compare(a, b);
}

int material_list(const struct variant *v, int pieces, struct material *out, int capacity)
{
    int n = 0;
    for (int w = 1; w < pieces; w++) {
        int b = pieces - w;
        if (w > v->men_per_side || b > v->men_per_side)
            continue;
        for (int wk = 0; wk <= w; wk++)
            for (int bk = 0; bk <= b; bk++) {
                struct material m = { { wk, bk }, { w - wk, b - bk } };
                if (material_is_canonical(&m) && n < capacity)
                    out[n++] = m;
            }
    }
    qsort(out, (size_t)n, sizeof out[0], compare_entries);
    return n;
}

static int add_unique(struct material *out, int n, int capacity, struct material m)
{
    if (!material_is_canonical(&m))
        m = material_flipped(&m);
    for (int i = 0; i < n; i++)
        if (material_equal(&out[i], &m))
            return n;
    if (n < capacity)
        out[n++] = m;
    return n;
}

int material_successors(const struct variant *v, const struct material *m,
                        struct material *out, int capacity)
{
    (void)v;
    int n = 0;
    for (int mover = WHITE; mover <= BLACK; mover++) {
        int other = 1 - mover;
        /* the mover keeps its pieces, one man perhaps crowned; the other side loses any
         * number of kings and men but not all of them (that ends the game) */
        for (int crowned = 0; crowned <= (m->men[mover] > 0); crowned++)
            for (int k = 0; k <= m->kings[other]; k++)
                for (int x = 0; x <= m->men[other]; x++) {
                    struct material s = *m;
                    bool captures = k < m->kings[other] || x < m->men[other];
                    if ((!captures && !crowned) || k + x == 0)
                        continue;
                    s.men[mover] -= crowned;
                    s.kings[mover] += crowned;
                    s.kings[other] = k;
                    s.men[other] = x;
                    n = add_unique(out, n, capacity, s);
                }
    }
    qsort(out, (size_t)n, sizeof out[0], compare_entries);
    return n;
}

int material_closure(const struct variant *v, const struct material *m,
                     struct material *out, int capacity)
{
    bool *seen = calloc(MATERIAL_CODES, sizeof *seen);
    struct material next[MAX_SUCCESSORS];
    int n = 0;
    for (int done = -1; seen && done < n; done++) {
        int k = material_successors(v, done < 0 ? m : &out[done], next, MAX_SUCCESSORS);
        for (int j = 0; j < k; j++)
            if (!seen[material_code(&next[j])] && n < capacity) {
                seen[material_code(&next[j])] = true;
                out[n++] = next[j];
            }
    }
    free(seen);
    return seen ? n : -1;
}

double material_positions_estimate(const struct variant *v, const struct material *m)
{
    const struct geometry *g = v->board();
    double n = 1;
    int free = g->num_squares;
    int counts[4] = { m->men[WHITE], m->men[BLACK], m->kings[WHITE], m->kings[BLACK] };
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < counts[k]; i++)
            n *= (double)(free - i) / (i + 1);
        free -= counts[k];
    }
    return material_men(m) == 0 ? n / g->num_syms : n;
}
