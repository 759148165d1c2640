/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * "Did you mean": the known word closest to one that was mistyped, for
 * option names, commands and option values.  Closeness is the
 * Damerau-Levenshtein distance (a swap of two neighbours is one edit),
 * with case ignored and '-' and '_' counted as the same character, so
 * that fio's --ramp_time and a typed --ramp-time are one word.
 */
#ifndef STORAN_SUGGEST_H
#define STORAN_SUGGEST_H

#include <stddef.h>

/*
 * The candidate closest to word, or NULL when none is close enough: at
 * most one edit for words of up to four characters, two up to eight,
 * three beyond (more would suggest 'read' for 'trim').  Ties go to the
 * first candidate; cands may contain NULL entries, which are skipped.
 */
const char *suggest_closest(const char *word, const char *const *cands,
			    size_t n);

/* The edit distance as above (exposed for the unit test). */
size_t suggest_distance(const char *a, const char *b);

#endif
