/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cairo, fontconfig and libxlsxwriter, loaded when first needed; see gfx.h. */
#include "gfx.h"
#include "../core/xalloc.h"

#include <dlfcn.h>
#include <pthread.h>

/* The libraries' file names (sonames), found by the Makefile. */
#ifndef CAIRO_SONAME
#define CAIRO_SONAME "libcairo.so.2"
#endif
#ifndef FONTCONFIG_SONAME
#define FONTCONFIG_SONAME "libfontconfig.so.1"
#endif
#ifndef XLSXWRITER_SONAME
#define XLSXWRITER_SONAME "libxlsxwriter.so.4"
#endif

struct gfx_api gfx;

static pthread_once_t cairo_once = PTHREAD_ONCE_INIT;
static pthread_once_t xlsx_once = PTHREAD_ONCE_INIT;
static int cairo_state, xlsx_state;	/* 1 loaded, -1 failed */

/* A library's functions: their names and where their addresses go. */
struct gfx_table {
	const char *lib;
	const char *const *names;
	void **const *slots;
	size_t n;
};

/*
 * Opens the table's library and fills its slots; -1 after saying what
 * failed.  (A data pointer converted to a function pointer: what POSIX's
 * dlsym() promises works.)
 */
static int load_table(const struct gfx_table *t)
{
	void *h = dlopen(t->lib, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return error("cannot load %s (needed for charts and "
			     "workbooks): %s", t->lib, dlerror());
	for (size_t i = 0; i < t->n; i++) {
		*t->slots[i] = dlsym(h, t->names[i]);
		if (!*t->slots[i])
			return error("%s has no function %s: %s", t->lib,
				     t->names[i], dlerror());
	}
	return 0;
}

#define GFX_NAME(f) #f,
#define GFX_SLOT(f) (void **)(void *)&gfx.f,
#define GFX_TABLE(lib, list) { lib, (const char *const[]){ list(GFX_NAME) }, \
	(void **const[]){ list(GFX_SLOT) }, \
	sizeof((const char *const[]){ list(GFX_NAME) }) / sizeof(char *) }

static void load_cairo(void)
{
	const struct gfx_table cairo = GFX_TABLE(CAIRO_SONAME,
						 CAIRO_FUNCTIONS);
	const struct gfx_table fc = GFX_TABLE(FONTCONFIG_SONAME,
					      FONTCONFIG_FUNCTIONS);

	cairo_state = load_table(&cairo) || load_table(&fc) ? -1 : 1;
}

static void load_xlsx(void)
{
	const struct gfx_table xlsx = GFX_TABLE(XLSXWRITER_SONAME,
						XLSX_FUNCTIONS);

	xlsx_state = load_table(&xlsx) ? -1 : 1;
}

int gfx_load_cairo(void)
{
	pthread_once(&cairo_once, load_cairo);
	return cairo_state > 0 ? 0 : -1;
}

int gfx_load_xlsx(void)
{
	pthread_once(&xlsx_once, load_xlsx);
	return xlsx_state > 0 ? 0 : -1;
}

int gfx_cairo_loaded(void)
{
	return cairo_state > 0;
}
