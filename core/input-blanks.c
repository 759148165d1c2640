/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A dd command whose blanks a web page lost: "root@proxmox1:~# ddif=/dev/
 * zeroof=/dev/mapper/mpathabs=1Mcount=100oflag=direct100+0 recordsin..."
 * (a blog that set each word in an element of its own, copied as text).
 *
 * dd's operands are "name=value" and dd knows fifteen names, so the text
 * before each '=' ends in the name and the value before it ends where the
 * name begins -- when exactly one name ends that text.  "of=/tmp/xbs=1M"
 * is of=/tmp/x and bs=1M ("xbs" is no name); "of=/dev/sdbobs=4k" may be
 * of=/dev/sdb obs=4k or of=/dev/sdbo bs=4k, and "if=xskip=1" skip= or a
 * value "xs" and kip=, which is none: neither is certain.  Where every '='
 * is, the blanks go back ("dd if=/dev/zero of=/dev/mapper/mpatha bs=1M
 * count=100 oflag=direct"), and dd's own phrases on the line lost theirs
 * too ("100+0 recordsin"): "records in".  Else the line stays as written
 * and the caller hears why.
 *
 * Only a command at the start of a line, after a prompt ("root@host:~# ",
 * "$ ", "[root@host ~]# ") or "sudo"/"time", and with two operands or
 * more, is taken: "np.std(x, ddof=1)" is Python.  The command ends at a
 * shell metacharacter or at the first word that is no operand.
 */
#include "input.h"
#include "input-private.h"
#include "strbuf.h"

#include <string.h>

static const char *const dd_operands[] = {
	"if", "of", "bs", "ibs", "obs", "cbs", "count", "skip", "seek",
	"iseek", "oseek", "conv", "iflag", "oflag", "status", NULL
};

/* Is [w, e) one of dd's operand names? */
static int is_operand(const char *w, const char *e)
{
	for (size_t k = 0; dd_operands[k]; k++)
		if ((size_t)(e - w) == strlen(dd_operands[k]) &&
		    !memcmp(w, dd_operands[k], (size_t)(e - w)))
			return 1;
	return 0;
}

/* Does p open "dd" glued to an operand ("ddif=", "ddbs=")? */
static int opens_glued_dd(const char *p, const char *end)
{
	if (end - p < 5 || p[0] != 'd' || p[1] != 'd')
		return 0;
	for (size_t k = 0; dd_operands[k]; k++) {
		size_t n = strlen(dd_operands[k]);

		if ((size_t)(end - p) > n + 2 &&
		    !memcmp(p + 2, dd_operands[k], n) && p[2 + n] == '=')
			return 1;
	}
	return 0;
}

static int word_is(const char *w, const char *e, const char *word)
{
	return (size_t)(e - w) == strlen(word) && !memcmp(w, word, (size_t)(e - w));
}

/*
 * Where the glued "dd" starts in [t, end): first on the line, or after a
 * prompt's words and "sudo" / "time" (a few words, each ending in '#' or
 * '$', opening with '[', or one of those); NULL when it is not there.
 */
static const char *glued_dd_word(const char *t, const char *end)
{
	const char *p = t;

	for (int words = 0; words < 4 && p < end; words++) {
		const char *w = p;

		if (opens_glued_dd(p, end))
			return p;
		while (p < end && !is_blank(*p))
			p++;
		if (p == w || (p[-1] != '#' && p[-1] != '$' && *w != '[' &&
			       !word_is(w, p, "sudo") && !word_is(w, p, "time")))
			return NULL;
		p = skip_blanks(p, end);
	}
	return NULL;
}

/*
 * The operand name that ends the text [v, e) before a '=' after at least
 * one byte of value, when it is the only one; else NULL, with the reason
 * in why.
 */
static const char *sole_name_ending(const char *v, const char *e,
				    struct strbuf *why)
{
	const char *name[2], *ctx = e - v > 16 ? e - 16 : v;
	size_t n = 0;

	for (size_t k = 0; dd_operands[k]; k++) {
		size_t len = strlen(dd_operands[k]);

		if ((size_t)(e - v) > len && !memcmp(e - len, dd_operands[k],
						     len) && n < 2)
			name[n++] = e - len;
	}
	if (n == 1)
		return name[0];
	if (!n)
		strbuf_addf(why, "'%.*s=' ends in no name of a dd operand",
			    (int)(e - ctx), ctx);
	else
		strbuf_addf(why, "'%.*s=' may end in %.*s= or in %.*s=",
			    (int)(e - ctx), ctx, (int)(e - name[0]), name[0],
			    (int)(e - name[1]), name[1]);
	return NULL;
}

/*
 * dd's "N+M records in|out" with its blanks lost ("100+0 recordsin",
 * "1+0records out"): copies [s, end) onto out with them put back.
 */
static void add_phrases(struct strbuf *out, const char *s, const char *end)
{
	const char *p = s;

	while (p < end) {
		const char *r = memchr(p, 'r', (size_t)(end - p)), *d;

		if (!r || end - r < 9) {
			strbuf_add(out, p, (size_t)(end - p));
			return;
		}
		d = r > s && r[-1] == ' ' ? r - 1 : r;
		if (!memcmp(r, "records", 7) && d > s && is_digit(d[-1]) &&
		    (!memcmp(r + 7, "in", 2) || !memcmp(r + 7, "out", 3))) {
			const char *q = d;

			while (q > s && is_digit(q[-1]))
				q--;
			if (q > s && q[-1] == '+') {
				strbuf_add(out, p, (size_t)(d - p));
				strbuf_adds(out, " records ");
				p = r + 7;
				continue;
			}
		}
		strbuf_add(out, p, (size_t)(r + 1 - p));
		p = r + 1;
	}
}

/* Past the token at p: the next blank, or stop. */
static const char *token_end(const char *p, const char *stop)
{
	while (p < stop && !is_blank(*p))
		p++;
	return p;
}

int input_dd_blanks_lost(const char *s, const char *end, struct strbuf *out,
			 struct strbuf *why)
{
	const char *dd, *stop, *p, *done;
	struct strbuf cmd = STRBUF_INIT;
	int operands = 0;

	while (s < end && (is_blank(*s) || *s == '>'))
		s++;
	if (!(dd = glued_dd_word(s, end)))
		return 0;
	for (stop = dd + 2; stop < end && !strchr("|;&<>'\"`()", *stop); stop++)
		;
	strbuf_add(&cmd, s, (size_t)(dd + 2 - s));
	/* done: how far the line is the command's, rebuilt in cmd */
	for (p = done = dd + 2; p < stop; p = skip_blanks(p, stop)) {
		const char *we = token_end(p, stop), *w = p, *eq, *v;

		eq = memchr(w, '=', (size_t)(we - w));
		if (!eq || !is_operand(w, eq))
			break;		/* the command ends here */
		for (v = eq + 1; (eq = memchr(v, '=', (size_t)(we - v)));
		     v = eq + 1) {
			const char *name = sole_name_ending(v, eq, why);

			if (!name) {
				strbuf_release(&cmd);
				return -1;
			}
			strbuf_addch(&cmd, ' ');
			strbuf_add(&cmd, w, (size_t)(name - w));
			w = name;
			operands++;
		}
		strbuf_addch(&cmd, ' ');
		strbuf_add(&cmd, w, (size_t)(we - w));
		operands++;
		p = done = we;
	}
	if (operands < 2) {
		strbuf_release(&cmd);
		return 0;
	}
	strbuf_add(&cmd, done, (size_t)(end - done));	/* the rest */
	strbuf_reset(out);
	add_phrases(out, strbuf_str(&cmd), strbuf_str(&cmd) + cmd.len);
	strbuf_release(&cmd);
	return 1;
}
