/*
 * "Did you mean": the candidate closest to a word the user typed, for
 * error messages about an unknown key, option or value.
 */
#ifndef STORAN_SUGGEST_H
#define STORAN_SUGGEST_H

#include <stddef.h>

/*
 * The candidate nearest to word by edit distance (insertions, deletions,
 * substitutions, and a swap of two neighbours counting one), or one that
 * word is a prefix of; NULL when none is within a third of word's length
 * (at least 2).  Case is ignored.
 */
const char *suggest_closest(const char *word, const char *const *candidates,
			    size_t n);

#endif
