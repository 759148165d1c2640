/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Libraries opened when first needed; see dynlib.h. */
#include "dynlib.h"
#include "xalloc.h"

#include <dlfcn.h>

/* (A data pointer converted to a function pointer by the caller's
 * slots: what POSIX's dlsym() promises works.) */
int dynlib_load(const struct dynlib_table *t)
{
	void *h = dlopen(t->lib, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return error("cannot load %s (needed for %s): %s", t->lib,
			     t->needed_for, dlerror());
	for (size_t i = 0; i < t->n; i++) {
		*t->slots[i] = dlsym(h, t->names[i]);
		if (!*t->slots[i])
			return error("%s has no function %s: %s", t->lib,
				     t->names[i], dlerror());
	}
	return 0;
}
