/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The engine table: an explicit list, in the order storan prefers the
 * engines when the user names none (io_uring, then libaio, then psync).
 */
#include "engine.h"

#include <string.h>

const struct engine_ops *const engine_preference[] = {
	&engine_io_uring,
	&engine_libaio,
	&engine_psync,
	NULL,
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; engine_preference[i]; i++)
		if (!strcmp(engine_preference[i]->name, name))
			return engine_preference[i];
	return NULL;
}
