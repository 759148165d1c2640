/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The checks of a figure against the link it crossed (over-link, and
 * unknown-link for a link label storan does not know) and hdparm -T's
 * cached reads (hdparm-cache).  A link comes from the measurement's link
 * label, --link, or a hint in its section or device label; check_link_of() is
 * shared with the page-cache checks (check-cache.c), which hold a
 * buffered write or a second read against the link too.
 */
#define _GNU_SOURCE
#include "check-private.h"
#include "links.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- over-link and unknown-link ---- */

/*
 * hdparm -T reads one buffer over and over: from the page cache (memory,
 * never the link), but with --direct ("Timing O_DIRECT cached reads")
 * from the drive's own cache, through its link every time.
 */
static int is_page_cache_read(const struct measurement *m)
{
	return is_cachedread(m) && !is_direct(m);
}

static size_t runs(const struct measurement *m)
{
	struct measurement_stats st;

	measurement_basic_stats(m, &st);
	return st.n;
}

static int compressed(const struct measurement *m)
{
	const char *v = label(m, "compression");

	return v && *v && !label_false(m, "compression");
}

/*
 * A link named in a section or device label ("Samsung 860 EVO (SATA)",
 * "/dev/nvme0n1", "WD Elements, USB 3.0"): the fastest link of the family
 * it names, so that a hint never makes a figure look too fast that such
 * a link can carry.  Two families named (a section "SATA vs NVMe") are no
 * hint.  Returns the label's key, with *l and *family filled, or NULL.
 */
static const char *link_hint(const struct measurement *m, struct link_info *l,
			     const char **family)
{
	static const char *const keys[] = { "section", "device", NULL };
	static const struct {
		const char *word, *link, *family;
	} families[] = {
		{ "sata", "sata3", "SATA" }, { "sas", "sas3", "SAS" },
		{ "nvme", "pcie5x16", "PCIe" }, { "usb 2", "usb2", "USB 2" },
		{ "usb2", "usb2", "USB 2" }, { "usb 3", "usb3.2", "USB 3" },
		{ "usb3", "usb3.2", "USB 3" },
		/* named exactly: after the family, so that it wins (USB 3.0
		 * is 5 Gb/s: 671 MB/s over it was left unflagged) */
		{ "usb 3.0", "usb3", "USB 3" }, { "usb3.0", "usb3", "USB 3" },
	};
	const size_t nfam = sizeof(families) / sizeof(families[0]);

	for (size_t k = 0; keys[k]; k++) {
		const char *v = label(m, keys[k]), *found = NULL;
		int kinds = 0;

		if (!v)
			continue;
		for (size_t f = 0; f < nfam; f++) {
			const char *p = strcasestr(v, families[f].word);
			size_t n = strlen(families[f].word);

			/* a word of its own: not "sas" in "Kansas", "usb"
			 * in "usb 2" counted once */
			if (!p || (p > v && isalpha((unsigned char)p[-1])) ||
			    isalpha((unsigned char)p[n]))
				continue;
			if (!found || strcmp(*family, families[f].family))
				kinds++;
			found = families[f].link;
			*family = families[f].family;
		}
		if (kinds == 1 && !link_lookup(found, l))
			return keys[k];
	}
	return NULL;
}

/*
 * The link a measurement crossed: its link label, --link, or (hints set)
 * the hint its section or device gives (*hint is then that label's key).
 * 1 and *l filled, 0 none, -1 a link label storan does not know.
 */
int check_link_of(struct check_ctx *c, size_t mi, struct link_info *l,
	    const char **hint, const char **family)
{
	const char *name = label(M(c, mi), "link");

	if (hint)
		*hint = NULL;
	if (name)
		return link_lookup(name, l) ? -1 : 1;
	if (c->have_link) {
		*l = c->link;
		return 1;
	}
	if (hint && (*hint = link_hint(M(c, mi), l, family)))
		return 1;
	return 0;
}

static int unknown_link_reported(const struct check_ctx *c, size_t mi)
{
	const char *name = label(M(c, mi), "link");

	for (size_t i = 0; i < c->out->n; i++) {
		const struct check_finding *f = &c->out->v[i];

		if (!strcmp(f->code, "unknown-link") &&
		    !strcmp(f->source, check_place_of(c, mi)) &&
		    !strcmp(label(M(c, f->measurements[0]), "link"), name))
			return 1;
	}
	return 0;
}

void check_over_link(struct check_ctx *c, size_t mi)
{
	const struct measurement *m = M(c, mi);
	struct link_info l;
	char v[64], lim[32];
	const char *hint, *family = NULL;
	double x;
	int st;

	if (!is_bw(m) || is_page_cache_read(m))
		return;
	st = check_link_of(c, mi, &l, &hint, &family);
	if (st < 0 && !unknown_link_reported(c, mi))
		check_add(c, CHECK_INFO, "unknown-link", mi, NAN, NAN,
		    "link '%s' is not one storan knows (%s), so the figures "
		    "over it are not checked against it", label(m, "link"),
		    link_names());
	if (st <= 0)
		return;
	x = peak(m);
	if (!(x > l.payload))
		return;
	check_figure(x, UNIT_BW, v, sizeof(v));
	if (runs(m) > 1)
		snprintf(v + strlen(v), sizeof(v) - strlen(v),
			 " (fastest of %zu runs)", runs(m));
	check_figure(l.payload, UNIT_BW, lim, sizeof(lim));
	if (compressed(m))
		check_add(c, CHECK_INFO, "over-link", mi, x, l.payload,
		    "%s of %s exceeds the %s a %s link can carry, which "
		    "compression=%s explains: the link carried the compressed "
		    "data, the figure counts it uncompressed", m->op, v, lim,
		    l.display, label(m, "compression"));
	else if (hint)
		check_add(c, CHECK_WARNING, "over-link", mi, x, l.payload,
		    "%s of %s exceeds the %s the fastest %s link can carry, "
		    "and its %s '%s' names that link: likely over the %s "
		    "link (--link names it exactly)", m->op, v, lim,
		    family, hint, label(m, hint), family);
	else
		check_add(c, CHECK_WARNING, "over-link", mi, x, l.payload,
		    "%s of %s exceeds the %s a %s link can carry", m->op, v,
		    lim, l.display);
}

/* ---- hdparm -T ---- */

void check_hdparm_cache(struct check_ctx *c, size_t mi)
{
	const struct measurement *m = M(c, mi);
	const char *dev = label(m, "device");
	char v[32];

	if (!str_is(m->tool, "hdparm") || !is_cachedread(m) || !is_bw(m))
		return;
	if (is_direct(m))
		check_add(c, CHECK_INFO, "hdparm-cache", mi, mean(m), NAN,
		    "hdparm -T --direct timed O_DIRECT cached reads at %s: "
		    "that is the speed of %s's own cache and its link, not "
		    "of its media", check_figure(mean(m), UNIT_BW, v, sizeof(v)),
		    dev ? dev : "the drive");
	else
		check_add(c, CHECK_INFO, "hdparm-cache", mi, mean(m), NAN,
		    "hdparm -T timed cached reads at %s: that is the speed of "
		    "memory and the page cache, not of %s",
		    check_figure(mean(m), UNIT_BW, v, sizeof(v)),
		    dev ? dev : "the disk");
}
