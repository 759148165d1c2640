/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The link table; see links.h.  Every figure is derived, not typed: the
 * signalling rate and lane count from the specification, times the share
 * of bits the line encoding leaves for data, over 8 bits per byte.
 *
 * Sources (the same list is in docs/storan-check.1):
 *
 *   SATA   Serial ATA revisions 1.0 (1.5 Gb/s), 2.x (3 Gb/s) and 3.x
 *          (6 Gb/s), SATA-IO; all three use 8b/10b.  Real drives top out
 *          near 550-560 MB/s on SATA 3 because FIS framing and CRC take
 *          the rest of the 600 MB/s.
 *   SAS    SAS-2 (INCITS 457, 6 Gb/s) and SAS-3 (INCITS 519, 12 Gb/s),
 *          T10; both 8b/10b.  One lane: the port of one drive.
 *   PCIe   PCI Express Base Specification 1.x (2.5 GT/s), 2.x (5 GT/s),
 *          both 8b/10b; 3.x (8 GT/s), 4.0 (16 GT/s), 5.0 (32 GT/s), all
 *          128b/130b; PCI-SIG.  Per direction, per lane times lanes.
 *          TLP headers and DLLP traffic leave NVMe drives about 85-90%.
 *   USB    USB 2.0 Specification, section 5.8.4, table 5-10: at most 13
 *          bulk packets of 512 bytes per 125 us microframe, 53.248 MB/s
 *          of the 480 Mb/s (NRZI, bit stuffing).  USB 3.2 Specification:
 *          Gen 1 5 Gb/s 8b/10b (usb3, also called USB 3.0 and USB 3.1
 *          Gen 1), Gen 2 10 Gb/s 128b/132b (usb3.1, USB 3.1 Gen 2), Gen
 *          2x2 two lanes of Gen 2 (usb3.2).  usb3.1 and usb3.2 name the
 *          fastest mode of their version.
 *   Ethernet  IEEE 802.3: 1000BASE-X clause 36 (1.25 GBd, 8b/10b),
 *          10GBASE-R clause 49 (10.3125 GBd, 64b/66b), 25GBASE-R
 *          (802.3by, 25.78125 GBd, 64b/66b), 40GBASE-R and 100GBASE-R
 *          (802.3ba, 4 lanes of 10.3125 and 25.78125 GBd, 64b/66b).
 *          Each gives exactly its MAC rate; TCP over a 1500-byte MTU then
 *          carries about 94% of it.
 */
#include "links.h"
#include "../core/numscan.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

struct fixed_link {
	const char *name;
	const char *display;
	double baud;		/* per lane, wire bits per second */
	int lanes;
	const char *encoding;
	double efficiency;	/* data bits per wire bit */
};

#define ENC_8B10B "8b/10b", 8.0 / 10.0
#define ENC_128B130B "128b/130b", 128.0 / 130.0
#define ENC_128B132B "128b/132b", 128.0 / 132.0
#define ENC_64B66B "64b/66b", 64.0 / 66.0

/*
 * USB 2.0: the encoding is not a fixed ratio; the efficiency is the
 * table 5-10 maximum, 13 * 512 bytes * 8 bits * 8000 microframes / s over
 * 480 Mb/s.
 */
#define USB2_EFFICIENCY (13.0 * 512 * 8 * 8000 / 480e6)

static const struct fixed_link fixed_links[] = {
	{ "sata1", "SATA 1.5 Gb/s", 1.5e9, 1, ENC_8B10B },
	{ "sata2", "SATA 3 Gb/s", 3e9, 1, ENC_8B10B },
	{ "sata3", "SATA 6 Gb/s", 6e9, 1, ENC_8B10B },
	{ "sas2", "SAS-2 6 Gb/s", 6e9, 1, ENC_8B10B },
	{ "sas3", "SAS-3 12 Gb/s", 12e9, 1, ENC_8B10B },
	{ "usb2", "USB 2.0", 480e6, 1, "NRZI, bulk transfers",
	  USB2_EFFICIENCY },
	{ "usb3", "USB 3 Gen 1", 5e9, 1, ENC_8B10B },
	{ "usb3.1", "USB 3.1 Gen 2", 10e9, 1, ENC_128B132B },
	{ "usb3.2", "USB 3.2 Gen 2x2", 10e9, 2, ENC_128B132B },
	{ "1gbe", "1 Gb Ethernet", 1.25e9, 1, ENC_8B10B },
	{ "10gbe", "10 Gb Ethernet", 10.3125e9, 1, ENC_64B66B },
	{ "25gbe", "25 Gb Ethernet", 25.78125e9, 1, ENC_64B66B },
	{ "40gbe", "40 Gb Ethernet", 10.3125e9, 4, ENC_64B66B },
	{ "100gbe", "100 Gb Ethernet", 25.78125e9, 4, ENC_64B66B },
};

#define NFIXED (sizeof(fixed_links) / sizeof(fixed_links[0]))

/* Spellings people type, after normalisation, and what they mean. */
static const struct { const char *alias, *name; } aliases[] = {
	{ "sataiii", "sata3" }, { "sataii", "sata2" }, { "satai", "sata1" },
	{ "sata6g", "sata3" }, { "sata3g", "sata2" }, { "sata1.5g", "sata1" },
	{ "sas6g", "sas2" }, { "sas12g", "sas3" },
	{ "usb2.0", "usb2" }, { "usb3.0", "usb3" }, { "usb3.1gen1", "usb3" },
	{ "usb3.2gen1", "usb3" }, { "usb3.1gen2", "usb3.1" },
	{ "usb3.2gen2", "usb3.1" }, { "usb3.2gen2x2", "usb3.2" },
	{ "1gige", "1gbe" }, { "10gige", "10gbe" }, { "25gige", "25gbe" },
	{ "40gige", "40gbe" }, { "100gige", "100gbe" },
};

/* PCI Express per generation: transfer rate per lane and encoding. */
static const struct { double gt; const char *encoding; double eff;
		      const char *version; } pcie_gens[] = {
	{ 2.5e9, ENC_8B10B, "1.0" },
	{ 5e9, ENC_8B10B, "2.0" },
	{ 8e9, ENC_128B130B, "3.0" },
	{ 16e9, ENC_128B130B, "4.0" },
	{ 32e9, ENC_128B130B, "5.0" },
};

/* Lowercase, without blanks, '-' and '_'; 0 when it does not fit. */
static int normalise(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; *in; in++) {
		if (*in == ' ' || *in == '\t' || *in == '-' || *in == '_')
			continue;
		if (n + 1 >= size)
			return 0;
		out[n++] = (char)tolower((unsigned char)*in);
	}
	out[n] = '\0';
	return n > 0;
}

static void fill(struct link_info *out, const char *name,
		 const char *display, double line_rate, const char *encoding,
		 double efficiency)
{
	snprintf(out->name, sizeof(out->name), "%s", name);
	snprintf(out->display, sizeof(out->display), "%s", display);
	out->line_rate = line_rate;
	out->encoding = encoding;
	out->payload = line_rate * efficiency / 8;
}

/* "pcie2x4", "pcie2.0x4", "pciegen3x4", "pcie3.0 x16". */
static int pcie_lookup(const char *s, struct link_info *out)
{
	const char *p = s;
	uint64_t gen, lanes;
	char name[16], display[24];

	if (!skip_prefix(&p, "pcie"))
		return -1;
	skip_prefix(&p, "gen");
	if (scan_u64(&p, &gen) || gen < 1 || gen > 5)
		return -1;
	skip_prefix(&p, ".0");
	if (*p++ != 'x' || scan_u64(&p, &lanes) || *p)
		return -1;
	if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 &&
	    lanes != 16)
		return -1;
	snprintf(name, sizeof(name), "pcie%ux%u", (unsigned)gen,
		 (unsigned)lanes);
	snprintf(display, sizeof(display), "PCIe %s x%u",
		 pcie_gens[gen - 1].version, (unsigned)lanes);
	fill(out, name, display, pcie_gens[gen - 1].gt * (double)lanes,
	     pcie_gens[gen - 1].encoding, pcie_gens[gen - 1].eff);
	return 0;
}

int link_lookup(const char *name, struct link_info *out)
{
	char s[32];
	const char *want;

	if (!normalise(name, s, sizeof(s)))
		return -1;
	if (!pcie_lookup(s, out))
		return 0;
	want = s;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(s, aliases[i].alias))
			want = aliases[i].name;
	for (size_t i = 0; i < NFIXED; i++) {
		const struct fixed_link *l = &fixed_links[i];

		if (strcmp(want, l->name))
			continue;
		fill(out, l->name, l->display, l->baud * l->lanes,
		     l->encoding, l->efficiency);
		return 0;
	}
	return -1;
}

const char *link_names(void)
{
	return "sata1 sata2 sata3 sas2 sas3 pcie1x1..pcie5x16 (pcieGxN, "
	       "N = 1 2 4 8 16) usb2 usb3 usb3.1 usb3.2 1gbe 10gbe 25gbe "
	       "40gbe 100gbe";
}
