/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The context pass; see context.h for what it attaches and when.
 *
 * It runs once per input, after every parser: headings are found in one
 * pass over the lines (each line then knows the heading in force), and
 * each measurement looks up from the line it was read from for the
 * command above its output.  It only reads the parse context and adds
 * labels; which lines are output is the parsers' word (ctx->claimed).
 */
#include "context.h"
#include "../parsers/shell.h"
#include "../core/numscan.h"
#include "../core/xalloc.h"
#include "../parsers/parser.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HEADING_MAX 100
#define COMMAND_MAX 200		/* a longer line is prose, unless... */
#define COMMAND_LONG_MAX 4096	/* ...it starts with the tool's name */

/* A rule: three or more of one of '-', '=', '*' and nothing else. */
static int is_rule(const char *t)
{
	size_t n = 0;

	if (*t != '-' && *t != '=' && *t != '*')
		return 0;
	while (t[n] == t[0])
		n++;
	return n >= 3 && !t[n];
}

/* Length of a run of one rule character at s (0 when under three). */
static size_t rule_run(const char *s)
{
	size_t n = 0;

	if (*s != '-' && *s != '=' && *s != '*')
		return 0;
	while (s[n] == s[0])
		n++;
	return n >= 3 ? n : 0;
}

/*
 * A run of three rule characters in [s, e)?  Then a line framed by rules
 * is a table's ruled header ("------ drive0 --------- drive1 ------" in
 * /proc/ide/piix), not a title.
 */
static int has_rule_run(const char *s, const char *e)
{
	for (; s + 3 <= e; s++)
		if ((*s == '-' || *s == '=' || *s == '*') && s[1] == *s &&
		    s[2] == *s)
			return 1;
	return 0;
}

/* '`' or '~' when t opens or closes a Markdown fence ("```bash"), else 0. */
static char fence_mark(const char *t)
{
	return (*t == '`' || *t == '~') && t[1] == *t && t[2] == *t ? *t : 0;
}

enum { IN_FENCE = 1, IN_FRONT_MATTER = 2 };

/* "key: value", "key:" or a "- item" of a list: a YAML metadata line. */
static int is_yaml_line(const char *t)
{
	const char *p = t;

	if (t[0] == '-' && t[1] == ' ')
		return 1;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	       (*p >= '0' && *p <= '9') || *p == '_' || *p == '-')
		p++;
	return p > t && *p == ':' && (!p[1] || p[1] == ' ');
}

/*
 * The YAML front matter of a Markdown file: "---" on the first line down
 * to the next "---".  Forum threads and blog posts archived as Markdown
 * open with one ("title: ...", "date: ...", "forum: Hardware &amp;
 * Laptops" over the closing "---"): its last line is metadata, not a
 * heading over the rule.  Returns the line after it (0 without one).
 */
static size_t front_matter_end(const struct input *in)
{
	if (!in->nlines || strcmp(in->lines[0].text, "---"))
		return 0;
	for (size_t i = 1; i < in->nlines; i++) {
		const char *t = in->lines[i].text;

		if (!strcmp(t, "---"))
			return i + 1;
		if (*t && !is_yaml_line(t))
			return 0;	/* a rule, then the document */
	}
	return 0;
}

static int is_rule_line(const struct parse_ctx *ctx, size_t i)
{
	return i < ctx->in->nlines && !ctx->claimed[i] &&
	       is_rule(ctx->in->lines[i].text);
}

static int is_tool_word(const char *w, size_t len);

/*
 * "## ext4 on NVMe": a Markdown heading of level 2 to 6.  A single '#'
 * is as often a root prompt ("# hdparm -t /dev/sda"): it heads only in
 * a text with fences, where commands sit inside them, and only a title
 * that is no command (its first word no benchmark tool, no option).
 * The text after the marks, or NULL.
 */
static const char *atx_title(const char *t, int markdown)
{
	size_t n = 0, w;
	const char *title;

	while (t[n] == '#')
		n++;
	if (n < 1 || n > 6 || !is_blank_char(t[n]))
		return NULL;
	title = t + n;
	while (is_blank_char(*title))
		title++;
	if (n >= 2)
		return title;
	w = strcspn(title, " \t");
	if (!markdown || is_tool_word(title, w) || strstr(title, " -") ||
	    strstr(title, " /dev/"))
		return NULL;
	return title;
}

/* "Then I ran it again", "re-run": a repetition, said in words. */
static int says_again(const char *t, size_t len)
{
	static const char *const marks[] = {
		"again", "rerun", "re-run", "once more", "second time", NULL
	};

	for (size_t k = 0; marks[k]; k++)
		for (size_t i = 0; i + strlen(marks[k]) <= len; i++)
			if (!strncasecmp(t + i, marks[k], strlen(marks[k])))
				return 1;
	return 0;
}

/* "Kyle wrote:", "[sudo] password for pi:": a mail's attribution or a
 * prompt, not a title.  An attribution ends in its ':', whether len
 * counts it or the caller took it off ("Cache on, small writes" names a
 * setup). */
static int attribution_or_prompt(const char *t, size_t len)
{
	static const char *const ends[] = {
		"wrote", "writes", "said", "schrieb", "escribió", "écrit",
		"scrisse", "написал", NULL
	};
	size_t e = len, b;

	if (t[0] == '[')
		return 1;
	for (size_t i = 0; i + 5 <= len; i++)
		if (!strncasecmp(t + i, "passw", 5))
			return 1;
	while (e > 0 && is_blank_char(t[e - 1]))
		e--;
	if (t[len] != ':' && (!e || t[e - 1] != ':'))
		return 0;
	while (e > 0 && (t[e - 1] == ':' || is_blank_char(t[e - 1])))
		e--;
	for (b = e; b > 0 && !is_blank_char(t[b - 1]);)
		b--;
	for (size_t k = 0; ends[k]; k++)
		if (e - b == strlen(ends[k]) && !strncmp(t + b, ends[k], e - b))
			return 1;
	return 0;
}

/*
 * "BEFORE:", "ext4, 4 KiB blocks:": a short line of its own that ends
 * in ':', with no option in it (that would be a command), right above a
 * blank line, a fence, a prompt or output.  Posts that compare put such
 * a line over each output; the title, or NULL.
 */
/* "before", "after", "baseline": a comparison's side, a title alone
 * even without its ':'. */
static int is_side_word(const char *t, size_t n)
{
	static const char *const words[] = {
		"before", "after", "baseline", "patched", "unpatched", NULL
	};

	for (size_t k = 0; words[k]; k++)
		if (strlen(words[k]) == n && !strncasecmp(t, words[k], n))
			return 1;
	return 0;
}

static const char *label_title(const struct parse_ctx *ctx,
			       const unsigned char *fenced, size_t i,
			       size_t *len)
{
	const struct input *in = ctx->in;
	const char *t = in->lines[i].text, *next;
	size_t n = in->lines[i].len, words = 1;

	if (fenced[i])
		return NULL;
	if ((t[0] == '*' || t[0] == '-') && t[1] == ' ') {	/* a bullet */
		t += 2;
		n -= 2;
	}
	if (n >= 2 && t[n - 2] == ':' && t[n - 1] == '-')
		n -= 2;		/* "Configfs membacked mode:-" */
	else if (n >= 2 && t[n - 1] == ':' && t[n - 2] != ':')
		n -= 1;
	else if (!is_side_word(t, n))
		return NULL;
	if (!n || n > 60)
		return NULL;
	for (size_t k = 0; k + 1 < n; k++) {
		if (is_blank_char(t[k]) && !is_blank_char(t[k + 1]))
			words++;
		if ((is_blank_char(t[k]) && t[k + 1] == '-') || t[k] == '=' ||
		    t[k] == '|' || t[k] == '`' || t[k] == '$')
			return NULL;
	}
	/* "/dev/sdb:" is a device's header, as hdparm prints it */
	if (words > 6 || t[0] == '-' || t[0] == '/' ||
	    line_after_prompt(t) != t || attribution_or_prompt(t, n))
		return NULL;
	/* a paragraph of its own: not the tail of a sentence wrapped
	 * over lines ("... improves performance\nsignificantly:") */
	if (i > 0 && in->lines[i - 1].len && !ctx->claimed[i - 1] &&
	    !fence_mark(in->lines[i - 1].text))
		return NULL;
	if (i + 1 >= in->nlines)
		return NULL;
	next = in->lines[i + 1].text;
	if (!(ctx->claimed[i + 1] || !in->lines[i + 1].len ||
	      fence_mark(next) || line_after_prompt(next) != next))
		return NULL;
	*len = n;
	return t;
}

/* "I ran", "Here is", "This is": a sentence's opening, not a name. */
static int opens_sentence(const char *t, size_t n)
{
	static const char *const words[] = {
		"i", "i'm", "i've", "i'd", "we", "we're", "we've", "here",
		"here's", "this", "these", "that", "it", "it's", "then", "so",
		"and", "but", "below", "above", "see", "also", "as", "if",
		"when", "with", "you", "my", "our", "thanks", "regards",
		"cheers", "hi", "hello", NULL
	};
	size_t w = 0;

	while (w < n && !is_blank_char(t[w]) && t[w] != ',')
		w++;
	for (size_t k = 0; words[k]; k++)
		if (strlen(words[k]) == w && !strncasecmp(t, words[k], w))
			return 1;
	return 0;
}

/*
 * Does the line read as a statement, not a name: a finite verb ("the
 * disk is slow", "minor fault 次数等于 13"), a note's word ("TODO"), or
 * a row of figures ("none 506 0 506 0% /dev/shm", df's)?
 */
static int reads_as_statement(const char *t, size_t n)
{
	static const char *const verbs[] = {
		"is", "are", "was", "were", "has", "have", "had", "got", "gets",
		"shows", "showed", "seems", "looks", "gives", "gave", "took",
		"takes", "did", "does", "can", "could", "should", "would",
		"will", "equals", "todo", "fixme", "note", "notes", "edit",
		"update", "updated", "exited", "failed", "finished",
		"returned", "started", NULL
	};
	size_t numbers = 0, words = 0;

	if (strstr(t, "等于"))
		return 1;
	for (size_t i = 0; i < n;) {
		size_t w = i, digits = 0;

		while (w < n && !is_blank_char(t[w]))
			digits += t[w] >= '0' && t[w] <= '9', w++;
		if (w > i) {
			words++;
			numbers += digits && strspn(t + i, "0123456789.,%") ==
						 w - i;
			for (size_t k = 0; verbs[k]; k++)
				if (strlen(verbs[k]) == w - i &&
				    !strncasecmp(t + i, verbs[k], w - i))
					return 1;
		}
		i = w + (w < n);
	}
	return numbers >= 3 || 2 * numbers > words;
}

/* Is line j where an output starts: output, a fence, or a command? */
static int starts_output(const struct parse_ctx *ctx, size_t j)
{
	const char *t = ctx->in->lines[j].text;
	char *cmd;

	if (ctx->claimed[j] || fence_mark(t) || line_after_prompt(t) != t)
		return 1;
	cmd = context_command_text(ctx, j);
	free(cmd);
	return cmd != NULL;
}

/* "it", "them", "this": a word that points at something, as a sentence
 * does ("Zip it.", "Unzip them."), and a name does not */
static int is_pronoun(const char *t, size_t n)
{
	static const char *const words[] = {
		"it", "them", "this", "that", "these", "those", "he", "she",
		"they", "we", "you", "i", "me", "us", NULL
	};

	for (size_t k = 0; words[k]; k++)
		if (strlen(words[k]) == n && !strncasecmp(t, words[k], n))
			return 1;
	return 0;
}

/*
 * "Cache on, small writes.": a name whose poster ended it like a
 * sentence.  One full stop, at the end: not "..." (a pause, "Testing
 * ..."), nor two sentences ("Slow. Very slow."); two words or more (not
 * "Reboot."), none a pronoun ("Zip it." tells what to do).  The rest of
 * plain_title()'s rules say whether it names or tells.
 */
static int ends_in_one_full_stop(const char *t, size_t n)
{
	size_t words = 0;

	if (n < 2 || t[n - 1] != '.' || t[n - 2] == '.' || is_blank_char(t[n - 2]))
		return 0;
	for (size_t k = 0; k + 2 < n; k++)
		if (t[k] == '.' && is_blank_char(t[k + 1]))
			return 0;
	for (size_t i = 0; i + 1 < n;) {
		size_t w = i;

		while (w + 1 < n && !is_blank_char(t[w]) && t[w] != ',')
			w++;
		if (w > i && is_pronoun(t + i, w - i))
			return 0;
		words += w > i;
		i = w + 1;
	}
	return words >= 2;
}

/*
 * "Samsung 860 EVO, ext4" alone between blank lines, right above its
 * outputs: a plain heading, as posts that compare drives put over each
 * one without underlining it.  The output may follow it on the next line
 * ("Mult-sect off, 16-bit" over " Timing cached reads: ..."): the line
 * then starts a paragraph whose rest is output.  A paragraph of one short line that names
 * something: at most 8 words and 60 characters, with a letter, no
 * sentence's end ('!', '?', ',', ';', nor a '.' but the one full stop
 * ends_in_one_full_stop() lets a name end in), no opening of one ("I ran
 * ...", "Here is") nor finite verb ("... is slow"), not a row of
 * figures, nothing of a command (an option, '=', '$', '`', '|',
 * a prompt, a tool's name first), no list item nor RST directive; the
 * next non-blank line an output, a fence or a command.  A fence may stand
 * right above or below it (notes that put "test read speed" between the
 * fence closing one output and the one opening the next).
 */
static const char *plain_title(const struct parse_ctx *ctx,
			       const unsigned char *fenced, size_t i,
			       size_t *len)
{
	const struct input *in = ctx->in;
	const char *t = in->lines[i].text;
	size_t n = in->lines[i].len, words = 1, w, j;
	int letter = 0;
	/* right over an output line: a drive's full name may be long
	 * ("16Gb Transcend Premium 400x SDHC Class 10 UHS Class 1 on a
	 * LIME1") */
	int over_output = i + 1 < in->nlines && ctx->claimed[i + 1];

	if (ends_in_one_full_stop(t, n))
		n--;	/* "Cache on, small writes." names as well */
	/* inside a fence only right over output ("Intel 80GB SSD Sata2"
	 * over hdparm's "/dev/sdb1:"), and of two words or more (not a
	 * bare "sync" typed before the output) */
	if ((fenced[i] && (i + 1 >= in->nlines || !ctx->claimed[i + 1] ||
			   !strpbrk(t, " \t"))) ||
	    n > (over_output ? 80 : 60) || strchr(".!?,;:", t[n - 1]) ||
	    (i > 0 && in->lines[i - 1].len &&
	     !fence_mark(in->lines[i - 1].text)) || i + 1 >= in->nlines ||
	    (in->lines[i + 1].len && !fence_mark(in->lines[i + 1].text) &&
	     !ctx->claimed[i + 1]))
		return NULL;
	/* a list's item ("* usage"), an RST directive (".. code::"), a
	 * "key: value" line ("**fio version**: 3.21", "**Client node:** 1 x
	 * DS12 v2") */
	/* ... nor a table's row or header, its columns aligned by runs of
	 * blanks ("SanDisk Extreme A1        random    random") */
	if ((strchr("*-+", t[0]) && is_blank_char(t[1])) || strstr(t, "::") ||
	    strstr(t, ": ") || strstr(t, ":** ") || strstr(t, ":* ") ||
	    strstr(t, "   ") || strchr(t, '\t') ||
	    reads_as_statement(t, n))
		return NULL;
	for (size_t k = 0; k < n; k++) {
		if (k + 1 < n && is_blank_char(t[k]) && !is_blank_char(t[k + 1]))
			words++;
		if ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z') ||
		    (unsigned char)t[k] >= 0x80)
			letter = 1;
		if ((is_blank_char(t[k]) && k + 1 < n && t[k + 1] == '-') ||
		    strchr("=|`$<>{}", t[k]))
			return NULL;
	}
	w = strcspn(t, " \t");
	if (words > (over_output ? 14 : 8) ||
	    !letter || t[0] == '-' || t[0] == '#' ||
	    t[0] == '>' || line_after_prompt(t) != t ||
	    is_tool_word(t, w) || opens_sentence(t, n) ||
	    attribution_or_prompt(t, n))
		return NULL;
	for (j = i + 1; j < in->nlines && !in->lines[j].len; j++)
		;
	if (j >= in->nlines || !starts_output(ctx, j))
		return NULL;
	*len = n;
	return t;
}

/*
 * A "# title" line is a shell comment as often as a heading, even in a
 * text with fences: one right above a command's output ("# wait, then
 * it shows:" over dd's records) says what comes, it heads nothing.  A
 * heading starts a paragraph and is not followed by output.
 */
static int lone_hash_heads(const struct parse_ctx *ctx, size_t i)
{
	const struct input *in = ctx->in;

	return (!i || !in->lines[i - 1].len ||
		fence_mark(in->lines[i - 1].text)) &&
	       (i + 1 >= in->nlines || !ctx->claimed[i + 1]);
}

/*
 * "versus", "and", "Results": one word that links or announces what is
 * around it and names no setup.  A post puts it alone between two quoted
 * outputs ("<the first>\n\nversus\n\n<the second>"): no heading.
 */
static int is_connective(const char *t, size_t n)
{
	static const char *const words[] = {
		"versus", "vs", "vs.", "v.", "and", "or", "then", "again",
		"also", "plus", "next", "now", "later", "finally", "but", "so",
		"against", "compared", "whereas", "while", "meanwhile",
		"instead", "otherwise", "likewise", "similarly", "here",
		"below", "above", "result", "results", "output", "outputs",
		NULL
	};

	for (size_t k = 0; words[k]; k++)
		if (strlen(words[k]) == n && !strncasecmp(t, words[k], n))
			return 1;
	return 0;
}

/* "this", "the", "is": words that point at what comes, naming nothing */
static int is_pointing_word(const char *t, size_t n)
{
	static const char *const words[] = {
		"this", "these", "the", "is", "are", "my", "our", "following",
		NULL
	};

	for (size_t k = 0; words[k]; k++)
		if (strlen(words[k]) == n && !strncasecmp(t, words[k], n))
			return 1;
	return 0;
}

/*
 * "This result", "Here is the output", "Results": a title of only such
 * words announces the output below it and names no setup (a blog puts
 * "This result" over each of its outputs).
 */
static int only_announces(const char *t, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t w = i;

		while (w < n && !is_blank_char(t[w]))
			w++;
		if (w > i && !is_connective(t + i, w - i) &&
		    !is_pointing_word(t + i, w - i))
			return 0;
		while (w < n && is_blank_char(t[w]))
			w++;
		i = w;
	}
	return 1;
}

/*
 * The title of a heading line, or NULL; *len is its length.  Inside a
 * fence the text is a program's output, not Markdown: a line over a rule
 * there is as often a table's last row ("Softlayer, HongKong, CN ...
 * 7.40MB/s" over "-----") as a title, so only a framed title counts.
 * Outside: also "## title" and a "label:" line (label_title).  A title
 * that counts runs ("Run 2:") or says "again" is no heading: those
 * outputs are one test.
 */
static const char *heading_title(const struct parse_ctx *ctx,
				 const unsigned char *fenced, int markdown,
				 size_t i, size_t *len, int *named)
{
	const struct input_line *l = &ctx->in->lines[i];
	const char *t = l->text, *e, *at;
	size_t lead, n = l->len;
	int weak = 0;

	if (ctx->claimed[i] || !n || is_rule(t) || fence_mark(t) ||
	    fenced[i] == IN_FRONT_MATTER)
		return NULL;
	lead = rule_run(t);
	if (lead) {		/* "=== title ===" */
		e = t + n;
		while (e > t + lead && e[-1] == t[0])
			e--;
		if ((size_t)(t + n - e) < 3 || has_rule_run(t + lead, e))
			return NULL;
		t += lead;
	} else if (!fenced[i] && (at = atx_title(t, markdown)) &&
		   line_after_prompt(at) == at &&
		   (t[1] == '#' || lone_hash_heads(ctx, i))) {
		/* (not "### [root@h dir]# cat x": a prompt turned heading) */
		t = at;
		e = t + n - (size_t)(t - l->text);
		while (e > t && e[-1] == '#')	/* "## title ##" */
			e--;
	} else if (is_rule_line(ctx, i + 1) &&
		   (!fenced[i] || (i && is_rule_line(ctx, i - 1)))) {
		e = t + n;
	} else if ((at = label_title(ctx, fenced, i, &n))) {
		t = at;
		e = t + n;
		weak = 1;
	} else if ((at = plain_title(ctx, fenced, i, &n))) {
		t = at;
		e = t + n;
		/* right over its output: it names that output alone */
		weak = i + 1 < ctx->in->nlines && ctx->claimed[i + 1] ? 2 : 1;
	} else {
		return NULL;
	}
	/* blanks, a trailing ':' and Markdown's bold ("**Output**") */
	while (t < e && (is_blank_char(*t) || *t == '*'))
		t++;
	while (e > t && (is_blank_char(e[-1]) || e[-1] == ':' || e[-1] == '*' ||
			 (e[-1] == '-' && e - 1 > t && e[-2] == ':')))
		e--;
	if (e - t > 3 && !strncmp(e - 3, "：", 3))	/* full-width ':' */
		e -= 3;
	*len = (size_t)(e - t);
	if (!*len || *len > HEADING_MAX || words_count_run(t, *len) ||
	    says_again(t, *len) || only_announces(t, *len))
		return NULL;
	if (named)
		*named = weak;
	return t;
}

/* Benchmarks storan reads no output of, whose commands are commands
 * all the same. */
static const char *const other_tools[] = { "bonnie++", "sysbench", NULL };

#define TOOLS_MAX 32

static const char *tools[TOOLS_MAX];
static size_t ntools;
static pthread_once_t tools_once = PTHREAD_ONCE_INIT;

static void list_tools(void)
{
	ntools = parser_programs(tools, TOOLS_MAX);
	for (size_t i = 0; other_tools[i] && ntools < TOOLS_MAX; i++)
		tools[ntools++] = other_tools[i];
}

/* What a benchmark command may run: the parsers' programs (their
 * table), then the others; listed once, for every thread. */
static size_t tool_names(const char *const **names)
{
	pthread_once(&tools_once, list_tools);
	*names = tools;
	return ntools;
}

static int is_tool_word(const char *w, size_t len)
{
	const char *base = w, *const *names;
	size_t n = tool_names(&names);

	for (size_t i = 0; i < len; i++)
		if (w[i] == '/')
			base = w + i + 1;
	len -= (size_t)(base - w);
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], base, len))
			return 1;
	return 0;
}

/* Whether t's words name a benchmark tool, and hold an option ("-t",
 * "bs=1M"). */
static void scan_words(const char *t, size_t len, int *tool, int *option)
{
	*tool = *option = 0;
	for (size_t i = 0; i < len;) {
		size_t s;

		while (i < len && is_blank_char(t[i]))
			i++;
		s = i;
		while (i < len && !is_blank_char(t[i]))
			i++;
		if (i == s)
			break;
		if ((t[s] == '-' && i - s > 1) || memchr(t + s, '=', i - s))
			*option = 1;
		if (is_tool_word(t + s, i - s))
			*tool = 1;
	}
}

/* Does a line look like a command?  See context.h. */
/*
 * "now no WARNINGS are triggered and hdparm -t /dev/sda produces:" (a line
 * that ends in ':'): three words or more before the first tool's name,
 * none a shell separator (';', '&', '|', '(', '`', "do", "then") -- a
 * sentence that names the command over its output, not the command.
 */
static int tool_after_prose(const char *t, size_t len)
{
	size_t words = 0;

	for (size_t i = 0; i < len;) {
		size_t w = i;

		while (w < len && !is_blank_char(t[w]))
			w++;
		if (w > i) {
			if (is_tool_word(t + i, w - i))
				return words >= 3;
			if (memchr(";&|(`", t[i], 5) ||
			    (w - i == 2 && !strncmp(t + i, "do", 2)) ||
			    (w - i == 4 && !strncmp(t + i, "then", 4)))
				return 0;
			for (size_t k = i; k < w; k++)
				if (strchr(";&|`", t[k]))
					return 0;
			words++;
		}
		i = w + (w < len);
	}
	return 0;
}

static int looks_like_command(const char *text, const char *t, size_t len)
{
	int tool, option;

	/* After a shell prompt: a program name.  Programs are lowercase
	 * (or paths); "# Resultado:" is a script comment, not a root shell. */
	if (t != text) {
		if (!((*t >= 'a' && *t <= 'z') || *t == '.' || *t == '/' ||
		      *t == '_') || text[strlen(text) - 1] == ':')
			return 0;
		if (text[0] != '#')
			return 1;
		/* "# " alone is a root prompt or a comment, and a comment
		 * is prose ("# similar results"): a command names a tool,
		 * a path or an option */
		scan_words(t, len, &tool, &option);
		return tool || option || *t == '.' || *t == '/';
	}
	/* A process list row ("1585 be/0 vagrant ... dd if=...") is not a
	 * command line: no command starts with a digit; nor is the shell's
	 * report of a job ("[1]+  Done   dd if=...", "[2] 16653"). */
	if ((*t >= '0' && *t <= '9') ||
	    (t[0] == '[' && t[1] >= '0' && t[1] <= '9'))
		return 0;
	scan_words(t, len, &tool, &option);
	if (tool && text[strlen(text) - 1] == ':' && tool_after_prose(t, len))
		return 0;
	return option && (tool || text[strlen(text) - 1] == ':');
}

/*
 * The first line of the command that ends on line c: transcripts continue
 * a long command with " \" onto the lines below ("fio --name=w \" over
 * "--size=4g --runtime=60").
 */
static size_t command_start(const struct parse_ctx *ctx, size_t c)
{
	size_t first = c;

	while (c && first - c < COMMAND_LINES_MAX && !ctx->claimed[c - 1] &&
	       line_continues(&ctx->in->lines[c - 1]))
		c--;
	return c;
}

/*
 * Short enough for a command?  Prose that names a tool and an option
 * ("I ran fio with --direct=1 and ...") runs long; a command line with
 * many files ("./iozone -t 10 ... -F f1 f2 ... f10", 356 characters)
 * does too, but starts with the tool itself (after "sudo", "time"...).
 */
static int fits_command(const char *t, size_t len)
{
	const char *p = t;
	char *w;
	int tool = 0;

	if (len <= COMMAND_MAX)
		return 1;
	if (len > COMMAND_LONG_MAX)
		return 0;
	/* the first word after the wrappers ("sudo", "time") */
	while ((w = shell_next_word(&p, t + len)) && shell_is_wrapper(w))
		free(w);
	tool = w && is_tool_word(w, strlen(w));
	free(w);
	return tool;
}

/*
 * Where a tool's command starts in t, past prose and a colon before it
 * ("Command: fio --name=...", "Test partition : sudo dd ..."), or t.
 */
static const char *past_prose(const char *t)
{
	const char *const *names;
	size_t n = tool_names(&names);
	struct shell_cmd sc;

	for (size_t i = 0; i < n; i++)
		if (shell_find(t, names[i], &sc, 1) && sc.prog > t &&
		    memchr(t, ':', (size_t)(sc.prog - t)))
			return sc.prog;
	return t;
}

/* The command ending on line c as the command label gives it, or NULL. */
char *context_command_text(const struct parse_ctx *ctx, size_t c)
{
	const char *t;
	char *text, *cmd = NULL;
	size_t len, last;

	text = input_joined_command(ctx->in, command_start(ctx, c), &last);
	t = line_after_prompt(text);
	if (t == text)
		t = past_prose(t);
	len = strlen(t);
	while (len && (is_blank_char(t[len - 1]) || t[len - 1] == ':'))
		len--;
	if (last == c && len && fits_command(t, len) &&
	    looks_like_command(text, t, len))
		cmd = xstrndup(t, len);
	free(text);
	return cmd;
}

/*
 * Does cmd run a benchmark tool other than the measurement's?  A page
 * that lost its line breaks leaves "# bonnie++ -d /data/tmp ... # hdparm
 * -tT /dev/md2" above hdparm's output: bonnie++'s command is no label
 * of hdparm's figures.
 */
static int runs_other_tool(const char *cmd, const char *tool)
{
	const char *p = cmd, *base;
	char *w;
	int other = 0;

	if (!strcmp(tool, "time"))	/* time runs any command */
		return 0;
	while ((w = shell_next_word(&p, cmd + strlen(cmd))) &&
	       shell_is_wrapper(w))
		free(w);
	if (!w)
		return 0;
	base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;
	other = is_tool_word(w, strlen(w)) && strcmp(base, tool);
	free(w);
	return other;
}

static char *command_at(const struct parse_ctx *ctx,
			const unsigned char *fenced, int markdown, size_t c)
{
	size_t hl;

	if (heading_title(ctx, fenced, markdown, c, &hl, NULL) ||
	    is_rule(ctx->in->lines[c].text))
		return NULL;
	return context_command_text(ctx, c);
}

/*
 * A buffered read, which a cache drop sends to the device?  Writes and
 * O_DIRECT reads bypass the page cache either way, and only some tools
 * read through it (their parser's row says which).
 */
static int reads_through_cache(const struct measurement *m)
{
	const struct parser *p = parser_for_tool(m->tool);
	const char *direct = labels_get(&m->labels, "direct");

	return p && p->reads_through_cache &&
	       m->op && (!strcmp(m->op, "read") ||
			 !strcmp(m->op, "randread")) &&
	       !(direct && !strcmp(direct, "1")) &&
	       !labels_get(&m->labels, "cache");
}

/* Does line i start a run: a prompt, or a benchmark tool's command? */
static int starts_run(const char *text)
{
	const char *const *names;
	size_t n = tool_names(&names);
	struct shell_cmd sc;

	if (line_after_prompt(text) != text)
		return 1;
	for (size_t t = 0; t < n; t++)
		if (shell_find(text, names[t], &sc, 1))
			return 1;
	return 0;
}

/*
 * A paragraph's last line that ends in ':' right over an output (after
 * blank lines), not fenced nor output itself: prose that introduces
 * that output.
 */
static int introduces_output(const struct parse_ctx *ctx,
			     const unsigned char *fenced, size_t i)
{
	const struct input_line *l = &ctx->in->lines[i];
	size_t j;

	if (fenced[i] || ctx->claimed[i] || !l->len ||
	    l->text[l->len - 1] != ':' || fence_mark(l->text))
		return 0;
	for (j = i + 1; j < ctx->in->nlines && !ctx->in->lines[j].len; j++)
		;
	return j < ctx->in->nlines && ctx->claimed[j];
}


/* ---- the pass: line after line, window after window ------------------- */

/*
 * The title of a heading, or the command of a line, still in force after
 * its line left the window: a log's title above a million runs.
 */
enum kept_kind { KEPT_TITLE, KEPT_COMMAND };

struct kept_text {
	size_t line;		/* the text's line index */
	enum kept_kind kind;
	char *text;		/* NULL: none on that line */
};

struct context_pass {
	struct parse_ctx *ctx;
	int markdown;		/* the text has Markdown fences */
	size_t front_end;	/* line indices below it: YAML front matter */
	/*
	 * Per window line below scanned: the heading in force and the
	 * nearest line above that is neither blank nor output (text line
	 * indices, SIZE_MAX for none), whether it lies in a fence, whether
	 * a cache drop is in force, and the prose lines of the text before
	 * it (prose[scanned] too).
	 */
	size_t scanned, alloc;
	size_t *heading, *above, *prose;
	unsigned char *fenced, *cold;
	/* The scan's state (text line indices). */
	size_t current, outer, strong, last;
	int output, named, weak_in_force;
	int drop_pending, drop_seen;
	char open_fence;
	/* The title and command read last for a measurement (copies: the
	 * window's texts move as it is cut and let go). */
	size_t title_li, cmd_li;
	char *title, *cmd;
	struct kept_text *kept;
	size_t nkept, kept_alloc;
	int cache_labelled;
};

static int any_fence(const struct input *in)
{
	for (size_t i = 0; i < in->nlines; i++)
		if (fence_mark(in->lines[i].text))
			return 1;
	return 0;
}

struct context_pass *context_begin(struct parse_ctx *ctx, int whole)
{
	struct context_pass *cp = xcalloc(1, sizeof(*cp));

	cp->ctx = ctx;
	cp->markdown = whole && any_fence(ctx->in);
	cp->front_end = front_matter_end(ctx->in);
	cp->current = cp->outer = cp->strong = cp->last = SIZE_MAX;
	cp->title_li = cp->cmd_li = SIZE_MAX;
	cp->prose = xcalloc(1, sizeof(*cp->prose));
	return cp;
}

void context_end(struct context_pass *cp)
{
	if (!cp)
		return;
	for (size_t k = 0; k < cp->nkept; k++)
		free(cp->kept[k].text);
	free(cp->kept);
	free(cp->title);
	free(cp->cmd);
	free(cp->heading);
	free(cp->above);
	free(cp->prose);
	free(cp->fenced);
	free(cp->cold);
	free(cp);
}

static void grow_lines(struct context_pass *cp, size_t need)
{
	size_t old = cp->alloc;

	if (need <= old)
		return;
	cp->alloc = need > 2 * old ? need : 2 * old;
	cp->heading = xrealloc(cp->heading, cp->alloc * sizeof(*cp->heading));
	cp->above = xrealloc(cp->above, cp->alloc * sizeof(*cp->above));
	cp->prose = xrealloc(cp->prose, (cp->alloc + 1) * sizeof(*cp->prose));
	cp->fenced = xrealloc(cp->fenced, cp->alloc);
	cp->cold = xrealloc(cp->cold, cp->alloc);
}

/* Line i inside a Markdown fence, or in the front matter? */
static unsigned char fence_state(struct context_pass *cp, size_t i)
{
	char mark;

	if (cp->ctx->in->window_base + i < cp->front_end)
		return IN_FRONT_MATTER;
	mark = fence_mark(cp->ctx->in->lines[i].text);
	if (!cp->open_fence)
		cp->open_fence = mark;
	else if (mark == cp->open_fence)
		cp->open_fence = 0;
	else
		return IN_FENCE;
	return 0;
}

/*
 * A cache drop ("echo 3 > /proc/sys/vm/drop_caches") is recorded in the
 * result set, and is in force from there through the first run's output,
 * up to the next prompt, tool command or prose after it.  A read after a
 * drop and the cached read after that are two measurements, not two runs
 * of one: the Arch wiki's SSD benchmark reads 170 MB/s, then 7.0 GB/s.
 */
static void scan_cache_drop(struct context_pass *cp, size_t i,
			    unsigned char flags)
{
	struct parse_ctx *ctx = cp->ctx;
	const struct input_line *l = &ctx->in->lines[i];

	if (!(flags & LINE_NO_DROP) && line_drops_cache(l->text)) {
		const char *origin = input_line_origin(ctx->in, l);

		result_set_add_cache_drop(ctx->rs, ctx->source,
					  origin ? origin : ctx->in->name,
					  l->lineno);
		cp->drop_pending = 1;
		cp->drop_seen = 0;
	} else if (cp->drop_pending && cp->drop_seen &&
		   !line_is_empty_at(ctx->in, i) &&
		   (!ctx->claimed[i] || starts_run(l->text))) {
		cp->drop_pending = 0;	/* the next run, or prose */
	}
	cp->cold[i] = (unsigned char)cp->drop_pending;
	cp->drop_seen |= cp->drop_pending && (flags & LINE_MEASURED);
}

/*
 * The heading in force at line i (a text line index), and the line
 * above it that is neither blank nor output: claimed, or the rest of a
 * claimed line its poster continued with " \".
 */
static void scan_heading(struct context_pass *cp, size_t i)
{
	const struct parse_ctx *ctx = cp->ctx;
	const struct input_line *lines = ctx->in->lines;
	size_t len, at = ctx->in->window_base + i;
	int weak;

	if (heading_title(ctx, cp->fenced, cp->markdown, i, &len, &weak)) {
		if (weak == 2 && !cp->named)
			cp->outer = cp->current;
		cp->named = weak == 2;
		if (!weak)
			cp->strong = at;
		cp->weak_in_force = weak != 0;
		cp->current = at;
	} else if (cp->weak_in_force && introduces_output(ctx, cp->fenced, i)) {
		/* "now no WARNINGS are triggered and hdparm -t /dev/sda
		 * produces:" -- prose that introduces the next output (no
		 * heading: a sentence) says it is not the one a plain or
		 * "label:" heading above named; the heading above that is in
		 * force */
		cp->current = cp->strong;
		cp->named = cp->weak_in_force = 0;
	} else if (cp->named && !ctx->claimed[i] &&
		   !line_is_empty_at(ctx->in, i) &&
		   !fence_mark(lines[i].text) &&
		   !says_again(lines[i].text, lines[i].len) &&
		   !(cp->output && line_continues(&lines[i - 1]))) {
		/* a line right over an output names that output: the next
		 * line of anything else ends its reach ("the same again"
		 * keeps it) */
		cp->current = cp->outer;
		cp->named = 0;
		cp->weak_in_force = cp->current != cp->strong;
	}
	cp->heading[i] = cp->current;
	cp->above[i] = cp->last;
	cp->output = ctx->claimed[i] ||
		     (cp->output && line_continues(&lines[i - 1]));
	if (!cp->output && !line_is_empty_at(ctx->in, i))
		cp->last = at;
}

void context_scan(struct context_pass *cp, size_t to,
		  const unsigned char *flags)
{
	const struct parse_ctx *ctx = cp->ctx;

	grow_lines(cp, to);
	for (size_t i = cp->scanned; i < to; i++) {
		const struct input_line *l = &ctx->in->lines[i];

		scan_cache_drop(cp, i, flags[i]);
		cp->fenced[i] = fence_state(cp, i);
		scan_heading(cp, i);
		/* prose: neither blank, nor a prompt, nor a run counter
		 * ("Run 2:"), nor output, claimed or inner */
		cp->prose[i + 1] = cp->prose[i] +
				   (!ctx->claimed[i] &&
				    !(flags[i] & LINE_INNER) &&
				    !line_is_empty_at(ctx->in, i) &&
				    !line_counts_run(l->text));
	}
	if (to > cp->scanned)
		cp->scanned = to;
}

size_t context_prose_before(const struct context_pass *cp, size_t li)
{
	return cp->prose[li];
}

static const struct kept_text *kept_find(const struct context_pass *cp,
					 size_t line, enum kept_kind kind)
{
	for (size_t k = 0; k < cp->nkept; k++)
		if (cp->kept[k].line == line && cp->kept[k].kind == kind)
			return &cp->kept[k];
	return NULL;
}

/* The title of the heading on text line `line` (to free), or NULL. */
static char *title_at(const struct context_pass *cp, size_t line)
{
	const struct kept_text *k;
	size_t base = cp->ctx->in->window_base, len;
	const char *t;

	if (line >= base) {
		t = heading_title(cp->ctx, cp->fenced, cp->markdown,
				  line - base, &len, NULL);
		return t ? xstrndup(t, len) : NULL;
	}
	k = kept_find(cp, line, KEPT_TITLE);
	return k && k->text ? xstrdup(k->text) : NULL;
}

/* The command on text line `line` as the command label gives it (to
 * free), or NULL. */
static char *command_on(const struct context_pass *cp, size_t line)
{
	const struct kept_text *k;
	size_t base = cp->ctx->in->window_base;

	if (line >= base)
		return command_at(cp->ctx, cp->fenced, cp->markdown,
				  line - base);
	k = kept_find(cp, line, KEPT_COMMAND);
	return k && k->text ? xstrdup(k->text) : NULL;
}

void context_label(struct context_pass *cp, struct measurement *m, size_t li)
{
	size_t h, a;

	if (li >= cp->scanned)
		return;
	h = cp->heading[li];
	a = cp->above[li];
	if (cp->cold[li] && reads_through_cache(m)) {
		labels_set(&m->labels, "cache", "dropped");
		cp->cache_labelled = 1;
	}
	if (h != SIZE_MAX && h != cp->ctx->in->window_base + li &&
	    !labels_get(&m->labels, "section")) {
		if (h != cp->title_li) {
			free(cp->title);
			cp->title_li = h;
			cp->title = title_at(cp, h);
		}
		if (cp->title)
			labels_set(&m->labels, "section", cp->title);
	}
	if (a != SIZE_MAX && !labels_get(&m->labels, "command")) {
		if (a != cp->cmd_li) {
			free(cp->cmd);
			cp->cmd_li = a;
			cp->cmd = command_on(cp, a);
		}
		if (cp->cmd && !runs_other_tool(cp->cmd, m->tool))
			labels_set(&m->labels, "command", cp->cmd);
	}
}

void context_key_at(const struct context_pass *cp, size_t li,
		    struct context_key *k)
{
	size_t h;

	if (li >= cp->scanned) {	/* (no labels there) */
		*k = (struct context_key){ SIZE_MAX, SIZE_MAX, 0 };
		return;
	}
	h = cp->heading[li];
	k->section = h == cp->ctx->in->window_base + li ? SIZE_MAX : h;
	k->command = cp->above[li];
	k->cold = cp->cold[li];
}

int context_labelled_cache(const struct context_pass *cp)
{
	return cp->cache_labelled;
}

/* Keeps the text of the heading (or command) on line `line`, still in
 * the window, unless kept already. */
static void keep_text(struct context_pass *cp, size_t line,
		      enum kept_kind kind)
{
	struct kept_text *k;
	size_t base = cp->ctx->in->window_base, len;
	const char *t;

	if (line == SIZE_MAX || line < base || kept_find(cp, line, kind))
		return;
	ALLOC_GROW(cp->kept, cp->nkept + 1, cp->kept_alloc);
	k = &cp->kept[cp->nkept++];
	k->line = line;
	k->kind = kind;
	if (kind == KEPT_TITLE) {
		t = heading_title(cp->ctx, cp->fenced, cp->markdown,
				  line - base, &len, NULL);
		k->text = t ? xstrndup(t, len) : NULL;
	} else {
		k->text = command_at(cp->ctx, cp->fenced, cp->markdown,
				     line - base);
	}
}

/* Is line `line` one that the state or the lines from window line
 * `from` on refer to, as kind? */
static int referred(const struct context_pass *cp, size_t line,
		    enum kept_kind kind, size_t from)
{
	const size_t *ref = kind == KEPT_TITLE ? cp->heading : cp->above;

	if (kind == KEPT_TITLE && (line == cp->current || line == cp->outer ||
				   line == cp->strong))
		return 1;
	if (kind == KEPT_COMMAND && line == cp->last)
		return 1;
	for (size_t i = from; i < cp->scanned; i++)
		if (ref[i] == line)
			return 1;
	return 0;
}

/*
 * Before the window's first n lines go: the titles and commands that the
 * state and the lines that stay refer to are kept when their line is
 * about to leave (within CONTEXT_BEHIND lines past n: the lines around
 * it, which reading it looks at, are still there; see context.h), and
 * those no longer referred to are let go.
 */
static void keep_referred(struct context_pass *cp, size_t n)
{
	size_t base = cp->ctx->in->window_base;
	size_t soon = base + n + CONTEXT_BEHIND, k = 0, prev_h = SIZE_MAX;
	size_t prev_a = SIZE_MAX;

	for (size_t i = 0; i < cp->nkept; i++) {
		struct kept_text *t = &cp->kept[i];

		if (referred(cp, t->line, t->kind, n))
			cp->kept[k++] = *t;
		else
			free(t->text);
	}
	cp->nkept = k;
	keep_text(cp, cp->current < soon ? cp->current : SIZE_MAX,
		  KEPT_TITLE);
	keep_text(cp, cp->outer < soon ? cp->outer : SIZE_MAX, KEPT_TITLE);
	keep_text(cp, cp->strong < soon ? cp->strong : SIZE_MAX, KEPT_TITLE);
	keep_text(cp, cp->last < soon ? cp->last : SIZE_MAX, KEPT_COMMAND);
	for (size_t i = n; i < cp->scanned; i++) {
		if (cp->heading[i] != prev_h && cp->heading[i] < soon)
			keep_text(cp, cp->heading[i], KEPT_TITLE);
		if (cp->above[i] != prev_a && cp->above[i] < soon)
			keep_text(cp, cp->above[i], KEPT_COMMAND);
		prev_h = cp->heading[i];
		prev_a = cp->above[i];
	}
}

void context_forget(struct context_pass *cp, size_t n)
{
	size_t keep;

	if (!n)
		return;
	keep_referred(cp, n);
	keep = cp->scanned - n;
	memmove(cp->heading, cp->heading + n, keep * sizeof(*cp->heading));
	memmove(cp->above, cp->above + n, keep * sizeof(*cp->above));
	memmove(cp->prose, cp->prose + n, (keep + 1) * sizeof(*cp->prose));
	memmove(cp->fenced, cp->fenced + n, keep);
	memmove(cp->cold, cp->cold + n, keep);
	cp->scanned = keep;
}
