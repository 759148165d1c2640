/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Usage errors from getopt_long(), with suggestions (see options.h).
 *
 * glibc's getopt_long() always steps past a long option, so the word
 * that failed is argv[optind - 1] when it starts with "--" (and optopt
 * is 0, or that option's val); otherwise a short option failed and
 * optopt holds its letter.
 */
#include "options.h"
#include "cmd.h"
#include "../core/strbuf.h"
#include "../core/suggest.h"
#include "../core/xalloc.h"

#include <stdlib.h>
#include <string.h>

static size_t count_longopts(const struct option *lo)
{
	size_t n = 0;

	while (lo[n].name)
		n++;
	return n;
}

static const struct option *find_long(const struct option *lo,
				      const char *name, size_t len)
{
	for (; lo->name; lo++)
		if (strlen(lo->name) == len && !strncmp(lo->name, name, len))
			return lo;
	return NULL;
}

/* Names that start with name[0..len): "--dir" is --direct or
 * --directory. */
static size_t prefix_matches(const struct option *lo, const char *name,
			     size_t len, struct strbuf *list)
{
	size_t n = 0;

	for (; lo->name; lo++) {
		if (strncmp(lo->name, name, len))
			continue;
		strbuf_addf(list, "%s--%s", n ? ", " : "", lo->name);
		n++;
	}
	return n;
}

static int long_option_error(const char *cmd, int c, const char *word,
			     const struct option *longopts)
{
	const char *name = word + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *o = find_long(longopts, name, len);
	struct strbuf list = STRBUF_INIT;
	const char **names;
	const char *best;
	char *typed;
	int rc;

	if (o && c == ':')
		return usage_error(cmd, "option '--%s' needs a value",
				   o->name);
	if (o && eq && o->has_arg == no_argument)
		return usage_error(cmd, "option '--%s' takes no value",
				   o->name);
	if (c == ':' || prefix_matches(longopts, name, len, &list) > 1) {
		rc = c == ':' ? usage_error(cmd, "option '--%.*s' needs a "
					    "value", (int)len, name) :
		     usage_error(cmd, "option '--%.*s' is ambiguous: %s",
				 (int)len, name, list.buf);
		strbuf_release(&list);
		return rc;
	}
	strbuf_release(&list);
	names = xcalloc(count_longopts(longopts) + 1, sizeof(*names));
	for (size_t i = 0; longopts[i].name; i++)
		names[i] = longopts[i].name;
	typed = xstrndup(name, len);
	best = suggest_closest(typed, names, count_longopts(longopts));
	if (best)
		rc = usage_error(cmd, "unknown option '--%s'; did you mean "
				 "'--%s'?", typed, best);
	else
		rc = usage_error(cmd, "unknown option '--%s'", typed);
	free(typed);
	free(names);
	return rc;
}

/* Did getopt fail on the long option word?  (optopt is 0 for an unknown
 * one, the option's val when its value was wrong.) */
static int failed_on_long(const char *word, const struct option *longopts)
{
	const char *name = word + 2, *eq;
	const struct option *o;

	if (strncmp(word, "--", 2) || !word[2])
		return 0;
	if (!optopt)
		return 1;
	eq = strchr(name, '=');
	o = find_long(longopts, name, eq ? (size_t)(eq - name) : strlen(name));
	return o && o->val == optopt;
}

/* The word holding the short option that failed: the current one while
 * letters of its cluster are left, else the one before. */
static const char *short_word(char **argv)
{
	const char *cur = argv[optind];

	if (cur && cur[0] == '-' && cur[1] && cur[1] != '-' &&
	    strchr(cur + 1, optopt))
		return cur;
	return optind > 0 ? argv[optind - 1] : NULL;
}

int option_error(const char *cmd, int c, char **argv,
		 const struct option *longopts)
{
	const char *word = optind > 0 ? argv[optind - 1] : NULL;
	const struct option *o;

	if (word && failed_on_long(word, longopts))
		return long_option_error(cmd, c, word, longopts);
	if (c == ':')
		return usage_error(cmd, "option '-%c' needs a value", optopt);
	/* "-bs 4k", as in other tools' single-dash spelling */
	word = short_word(argv);
	if (word && word[0] == '-' && word[1] == optopt && word[2] &&
	    (o = find_long(longopts, word + 1, strlen(word + 1))))
		return usage_error(cmd, "unknown option '-%c'; did you mean "
				   "'--%s'?", optopt, o->name);
	return usage_error(cmd, "unknown option '-%c'", optopt);
}
