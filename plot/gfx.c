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

/* Opens lib and fills the table from it; -1 after saying what failed. */
static void *open_library(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		error("cannot load %s (needed for charts and workbooks): %s",
		      lib, dlerror());
	return h;
}

static int resolve(void *h, const char *lib, const char *name, void **slot)
{
	*slot = dlsym(h, name);
	if (*slot)
		return 0;
	return error("%s has no function %s: %s", lib, name, dlerror());
}

/* (A data pointer converted to a function pointer: what POSIX's dlsym
 * promises works.) */
#define GFX_RESOLVE(f) \
	failed |= resolve(h, lib, #f, (void **)(void *)&gfx.f);

static void load_cairo(void)
{
	const char *lib = CAIRO_SONAME;
	void *h = open_library(lib);
	int failed = !h;

	if (h) {
		CAIRO_FUNCTIONS(GFX_RESOLVE)
	}
	lib = FONTCONFIG_SONAME;
	h = failed ? NULL : open_library(lib);
	failed |= !h;
	if (h) {
		FONTCONFIG_FUNCTIONS(GFX_RESOLVE)
	}
	cairo_state = failed ? -1 : 1;
}

static void load_xlsx(void)
{
	const char *lib = XLSXWRITER_SONAME;
	void *h = open_library(lib);
	int failed = !h;

	if (h) {
		XLSX_FUNCTIONS(GFX_RESOLVE)
	}
	xlsx_state = failed ? -1 : 1;
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
