/* The probe for the depths of a search: a position's WDL from the block cache alone,
 * or DAMERO_NOT_CACHED at once (damero_probe_wdl_cached). It follows the path of
 * probe_wdl (probe/read_value.c) but stops where that path would open a file or read a
 * block, so that a search never waits on the disk. */
#include "core/movegen.h"
#include "probe/cache.h"
#include "probe/internal.h"

/* p's WDL from the cache alone, as probe_wdl reads it otherwise. */
static int cached_wdl(damero_tb *tb, const struct position *p, enum wdl *out)
{
    struct lookup l;
    enum game_end over;
    int status = probe_lookup(tb, p, &l, &over);
    if (status != DAMERO_OK)
        return status;
    if (over != GAME_GOES_ON) {
        *out = dtm_wdl(dtm_game_end(over));
        return DAMERO_OK;
    }
    struct tb_table *t = tb->by_code[material_code(&l.material)];
    const struct tb_file *f = t ? &t->file[METRIC_WDL - 1] : NULL;
    int state = f ? atomic_load_explicit(&f->state, memory_order_acquire) : FILE_ABSENT;
    if (state == FILE_LISTED)
        return DAMERO_NOT_CACHED; /* opening it reads its header and directory */
    if (state != FILE_OPEN)
        /* no such table, or a file found bad: probe_wdl says which and why, reading
         * nothing, since neither state ever changes again */
        return probe_wdl(tb, p, out);
    if ((f->map.info.flags & TABLE_FLAG_CAPTURES_DONT_CARE) && has_capture(tb->v, &l.oriented))
        return probe_wdl_by_captures(tb, &l.oriented, cached_wdl, out);
    struct value_place at = probe_place_of(t, METRIC_WDL, l.oriented.side,
                                           index_of(&t->ix, &l.oriented, NULL));
    unsigned value;
    bool hit = block_cache_value(tb->cache, at.cache_file, at.block, at.map->info.value_bits,
                                 at.count, at.k, &value);
    probe_count_lookup(tb, hit);
    if (!hit)
        return DAMERO_NOT_CACHED;
    *out = (enum wdl)value;
    return DAMERO_OK;
}

int damero_probe_wdl_cached(damero_tb *tb, const damero_position *pos, int *wdl)
{
    struct position p;
    enum wdl w;
    if (!tb || !wdl)
        return probe_fail(DAMERO_ERR_ARGUMENT, "damero_probe_wdl_cached: a NULL argument");
    int status = probe_position_in(tb, pos, &p);
    if (status == DAMERO_OK && (status = cached_wdl(tb, &p, &w)) == DAMERO_OK)
        *wdl = public_wdl(w);
    return status;
}
