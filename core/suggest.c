/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The closest known word (see suggest.h).  Words are short (option names,
 * values): a full table of distances on the stack, no allocation.  Longer
 * words are never close to anything: they get no suggestion.
 */
#include "suggest.h"

#include <ctype.h>
#include <string.h>

#define WORD_MAX 64

static int same_char(char a, char b)
{
	if (a == '_')
		a = '-';
	if (b == '_')
		b = '-';
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[WORD_MAX + 1][WORD_MAX + 1];

	if (la > WORD_MAX || lb > WORD_MAX)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = !same_char(a[i - 1], b[j - 1]);

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && same_char(a[i - 1], b[j - 2]) &&
			    same_char(a[i - 2], b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

static size_t allowed_edits(const char *word)
{
	size_t len = strlen(word);

	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

const char *suggest_closest(const char *word, const char *const *cands,
			    size_t n)
{
	const char *best = NULL;
	size_t best_d = allowed_edits(word) + 1;

	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!cands[i])
			continue;
		d = suggest_distance(word, cands[i]);
		if (d < best_d) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
