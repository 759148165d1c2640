/* "Did you mean"; see suggest.h. */
#include "suggest.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Damerau-Levenshtein (optimal string alignment) distance, ignoring case. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d;
	size_t *row = xmalloc(3 * (lb + 1) * sizeof(*row));
	size_t *prev2 = row, *prev = row + lb + 1, *cur = row + 2 * (lb + 1);

	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int same = tolower((unsigned char)a[i - 1]) ==
				   tolower((unsigned char)b[j - 1]);
			size_t v = prev[j - 1] + !same;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) ==
			    tolower((unsigned char)b[j - 1]) &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		{
			size_t *t = prev2;

			prev2 = prev;
			prev = cur;
			cur = t;
		}
	}
	d = prev[lb];
	free(row);
	return d;
}

const char *suggest_closest(const char *word, const char *const *candidates,
			    size_t n)
{
	size_t len = strlen(word), limit = len / 3 > 2 ? len / 3 : 2;
	size_t best_d = (size_t)-1;
	const char *best = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = distance(word, candidates[i]);

		/* a typed prefix ("iodep" for "iodepth") is near */
		if (len >= 2 && !strncasecmp(candidates[i], word, len))
			d = d < 1 ? d : 1;
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
