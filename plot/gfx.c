/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cairo, fontconfig and libxlsxwriter, loaded when first needed; see gfx.h. */
#include "gfx.h"
#include "../core/dynlib.h"

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

#define GFX_SLOT(f) (void **)(void *)&gfx.f,
#define GFX_TABLE(lib, list) { lib, "charts and workbooks", \
	(const char *const[]){ list(DYNLIB_NAME) }, \
	(void **const[]){ list(GFX_SLOT) }, DYNLIB_COUNT(list) }

static void load_cairo(void)
{
	const struct dynlib_table cairo = GFX_TABLE(CAIRO_SONAME,
						    CAIRO_FUNCTIONS);
	const struct dynlib_table fc = GFX_TABLE(FONTCONFIG_SONAME,
						 FONTCONFIG_FUNCTIONS);

	cairo_state = dynlib_load(&cairo) || dynlib_load(&fc) ? -1 : 1;
}

static void load_xlsx(void)
{
	const struct dynlib_table xlsx = GFX_TABLE(XLSXWRITER_SONAME,
						   XLSX_FUNCTIONS);

	xlsx_state = dynlib_load(&xlsx) ? -1 : 1;
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
