/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What every command shares to read its options and say what is wrong
 * with them (options.h, cmd.h): usage errors, with suggestions for what
 * getopt_long() refused; usage text; the command line as typed; the
 * values several commands take (K=V labels, comma-separated lists).
 *
 * glibc's getopt_long() always steps past a long option, so the word
 * that failed is argv[optind - 1] when it starts with "--" (and optopt
 * is 0, or that option's val); otherwise a short option failed and
 * optopt holds its letter.
 */
#include "options.h"
#include "cmd.h"
#include "../core/resultset.h"
#include "../core/strbuf.h"
#include "../core/suggest.h"
#include "../core/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *storan_command_line = "storan";

void cmd_set_command_line(int argc, char **argv)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "storan");
	for (int i = 1; i < argc; i++)
		strbuf_addf(&sb, " %s", argv[i]);
	storan_command_line = strbuf_str(&sb);
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "storan %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'storan %s --help'.\n", cmd);
	return EXIT_TROUBLE;
}

void print_usage(FILE *fp, const char *text)
{
	fputs(text, fp);
}

int parse_label_arg(const char *arg, struct labels *labels)
{
	const char *eq = strchr(arg, '=');
	char *key;

	if (!eq || eq == arg || strchr(arg, ';'))
		return -1;
	key = xstrndup(arg, (size_t)(eq - arg));
	labels_set(labels, key, eq + 1);
	free(key);
	return 0;
}

int option_list_add(const char *s, char ***v, size_t *n)
{
	for (;;) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);

		if (!len)
			return -1;
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = xstrndup(s, len);
		if (!end)
			return 0;
		s = end + 1;
	}
}

void option_list_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

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
