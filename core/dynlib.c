/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Libraries opened when first needed; see dynlib.h. */
#include "dynlib.h"
#include "xalloc.h"

#include <dlfcn.h>
#include <stdatomic.h>

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

int dynlib_load_once(struct dynlib_once *once, const struct dynlib_table *t)
{
	int state = atomic_load(&once->state);

	if (!state) {
		pthread_mutex_lock(&once->lock);
		state = atomic_load(&once->state);
		if (!state) {
			state = dynlib_load(t) ? -1 : 1;
			if (state > 0 && t->loaded)
				t->loaded();
			atomic_store(&once->state, state);
		}
		pthread_mutex_unlock(&once->lock);
	}
	return state > 0 ? 0 : -1;
}

int dynlib_is_loaded(const struct dynlib_once *once)
{
	return atomic_load(&once->state) > 0;
}
