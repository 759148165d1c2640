/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared JSON output helpers; see json-out.h. */
#include "json-out.h"
#include "strbuf.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>

json_t *json_number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

void json_dump_to(json_t *doc, size_t flags, int newline, struct strbuf *out)
{
	char *text = json_dumps(doc, flags);

	if (!text)
		die("out of memory");
	strbuf_adds(out, text);
	if (newline)
		strbuf_addch(out, '\n');
	free(text);
	json_decref(doc);
}
