/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Links: the names storan knows for the buses and networks that storage
 * data crosses, and the most payload each can carry in one direction.
 *
 * The limit is the raw signalling rate of all lanes minus the line
 * encoding (8b/10b keeps 8 of every 10 bits, 128b/130b 128 of 130, ...),
 * in bytes per second.  Protocol overhead above the encoding (packet
 * headers, flow control, command frames) takes a few per cent more, which
 * makes the figure an upper bound that no measurement can honestly
 * exceed: a read "faster than the link" came from a cache, or was
 * computed wrongly.  The reasoning and the source of every figure is in
 * links.c next to it and in storan-check(1).
 *
 * Names (exact, lowercase): sata1 sata2 sata3, sas2 sas3, pcieGxN for
 * G in 1..5 and N in 1 2 4 8 16, usb2 usb3 usb3.1 usb3.2, 1gbe 10gbe
 * 25gbe 40gbe 100gbe.  link_lookup() also accepts the spellings people
 * type in tables ("PCIe 2.0 x4", "PCIe Gen3 x4", "SATA3", "10GbE").
 */
#ifndef STORAN_LINKS_H
#define STORAN_LINKS_H

#include <stddef.h>

struct link_info {
	char name[16];		/* canonical name: "pcie2x4" */
	char display[24];	/* for messages: "PCIe 2.0 x4" */
	double line_rate;	/* signalling rate of all lanes, bit/s */
	const char *encoding;	/* "8b/10b", "128b/130b", ... */
	double payload;		/* bytes/s left after the encoding */
};

/*
 * Looks a link up by name (case, blanks, '-' and '_' ignored; "gen" and
 * ".0" after "pcie" optional).  Returns 0 and fills out, or -1.
 */
int link_lookup(const char *name, struct link_info *out);

/* Every canonical name, space-separated, for help texts and errors. */
const char *link_names(void);

#endif
