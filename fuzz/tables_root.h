/* The folder the command-line fuzz targets run in: a temporary directory holding the
 * russian tables of up to 3 pieces as tables/russian (the default --dir), removed when
 * the process ends. */
#ifndef DAMERO_FUZZ_TABLES_ROOT_H
#define DAMERO_FUZZ_TABLES_ROOT_H

/* Makes the folder, builds the tables into it and changes into it; aborts on failure,
 * naming `target`. */
void enter_tables_root(const char *target);

#endif
