/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one number scanner for text from other tools.
 *
 * Every number storan reads from text goes through these functions: they
 * are locale-independent (a German "13,7" is read only when the caller asks
 * for SCAN_COMMA_DECIMAL), advance a cursor past what they consumed, and
 * return distinct statuses instead of guessing.  atoi/sscanf/strtok are not
 * used anywhere in storan.  Strings are NUL-terminated.
 */
#ifndef STORAN_NUMSCAN_H
#define STORAN_NUMSCAN_H

#include <stdint.h>

enum scan_status {
	SCAN_OK = 0,
	SCAN_NO_DIGITS = -1,	/* no number at the cursor */
	SCAN_OVERFLOW = -2,	/* does not fit the type */
	SCAN_TOO_LONG = -3,	/* more digits than any real figure has */
	SCAN_NEGATIVE = -4,	/* a sign where none is allowed */
};

enum scan_flags {
	SCAN_COMMA_DECIMAL = 1 << 0,	/* "54,5651" is 54.5651 */
	SCAN_ALLOW_SIGN = 1 << 1,	/* accept a leading + or - */
	SCAN_NO_EXPONENT = 1 << 2,	/* "1e5" stops before 'e' */
};

/* Reads a decimal number at *p; on SCAN_OK *p points past it. */
int scan_double(const char **p, unsigned flags, double *out);
/* Reads an unsigned decimal integer at *p. */
int scan_u64(const char **p, uint64_t *out);
/* A human message for a status ("no number", ...). */
const char *scan_strerror(int status);

/* Cursor helpers: they never move past the NUL. */
const char *skip_spaces(const char *p);
/* If s starts with word, advance *p past it and return 1. */
static inline int skip_prefix(const char **p, const char *word)
{
	const char *s = *p;

	for (; *word; s++, word++)
		if (*s != *word)
			return 0;
	*p = s;
	return 1;
}
/* Like skip_prefix, ignoring ASCII case. */
int skip_prefix_icase(const char **p, const char *word);
static inline int starts_with(const char *s, const char *prefix)
{
	/* a loop, not strncmp(strlen()): most calls fail at the first
	 * byte; inline, as detect() asks it of every line of each window
	 * of a long log */
	for (; *prefix; s++, prefix++)
		if (*s != *prefix)
			return 0;
	return 1;
}
int ends_with(const char *s, const char *suffix);
/* Is s one of the NULL-terminated list's strings? */
int str_in_list(const char *s, const char *const *list);
/* A blank inside a line: ' ' or a tab. */
static inline int is_blank_char(char c)
{
	return c == ' ' || c == '\t';
}

/* '0'..'9' only, whatever the locale (isdigit() is not that). */
static inline int is_ascii_digit(int c)
{
	return c >= '0' && c <= '9';
}

#endif
