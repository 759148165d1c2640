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

#define GFX_SLOT(f) DYNLIB_SLOT(gfx, f)
#define GFX_TABLE(lib, list) \
	DYNLIB_TABLE(lib, "charts and workbooks", list, GFX_SLOT, NULL)
static const struct dynlib_table cairo_lib =
	GFX_TABLE(CAIRO_SONAME, CAIRO_FUNCTIONS);
static const struct dynlib_table fontconfig_lib =
	GFX_TABLE(FONTCONFIG_SONAME, FONTCONFIG_FUNCTIONS);
static const struct dynlib_table xlsx_lib =
	GFX_TABLE(XLSXWRITER_SONAME, XLSX_FUNCTIONS);
static struct dynlib_once cairo_once = DYNLIB_ONCE_INIT;
static struct dynlib_once fontconfig_once = DYNLIB_ONCE_INIT;
static struct dynlib_once xlsx_once = DYNLIB_ONCE_INIT;

int gfx_load_cairo(void)
{
	return dynlib_load_once(&cairo_once, &cairo_lib) ||
	       dynlib_load_once(&fontconfig_once, &fontconfig_lib) ? -1 : 0;
}

int gfx_load_xlsx(void)
{
	return dynlib_load_once(&xlsx_once, &xlsx_lib);
}

int gfx_cairo_loaded(void)
{
	return dynlib_is_loaded(&cairo_once) &&
	       dynlib_is_loaded(&fontconfig_once);
}
