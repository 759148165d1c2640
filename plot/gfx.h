/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cairo, fontconfig and libxlsxwriter are loaded when a chart or a
 * workbook is first drawn, not when storan starts: linked, they and the
 * twenty libraries they pull in (X11, freetype, pixman...) took 1.4 ms of
 * every command, an ingest as much as a report.  Their functions are
 * called through the tables below (gfx.cairo_create(...)); the types and
 * constants still come from their headers.
 */
#ifndef STORAN_GFX_H
#define STORAN_GFX_H

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <xlsxwriter.h>

#define CAIRO_FUNCTIONS(X) \
	X(cairo_arc) \
	X(cairo_clip) \
	X(cairo_create) \
	X(cairo_debug_reset_static_data) \
	X(cairo_destroy) \
	X(cairo_fill) \
	X(cairo_fill_preserve) \
	X(cairo_font_options_create) \
	X(cairo_font_options_destroy) \
	X(cairo_font_options_set_antialias) \
	X(cairo_font_options_set_hint_metrics) \
	X(cairo_get_user_data) \
	X(cairo_format_stride_for_width) \
	X(cairo_image_surface_create) \
	X(cairo_image_surface_create_for_data) \
	X(cairo_image_surface_get_data) \
	X(cairo_image_surface_get_height) \
	X(cairo_image_surface_get_stride) \
	X(cairo_image_surface_get_width) \
	X(cairo_line_to) \
	X(cairo_move_to) \
	X(cairo_new_sub_path) \
	X(cairo_paint) \
	X(cairo_pdf_surface_create_for_stream) \
	X(cairo_pdf_surface_set_metadata) \
	X(cairo_rectangle) \
	X(cairo_rel_move_to) \
	X(cairo_restore) \
	X(cairo_rotate) \
	X(cairo_save) \
	X(cairo_scale) \
	X(cairo_select_font_face) \
	X(cairo_set_dash) \
	X(cairo_set_font_options) \
	X(cairo_set_font_size) \
	X(cairo_set_line_join) \
	X(cairo_set_line_width) \
	X(cairo_set_source_rgb) \
	X(cairo_set_source_rgba) \
	X(cairo_set_user_data) \
	X(cairo_show_text) \
	X(cairo_status) \
	X(cairo_status_to_string) \
	X(cairo_stroke) \
	X(cairo_surface_destroy) \
	X(cairo_surface_finish) \
	X(cairo_surface_flush) \
	X(cairo_surface_status) \
	X(cairo_svg_surface_create_for_stream) \
	X(cairo_svg_surface_set_document_unit) \
	X(cairo_text_extents)

#define FONTCONFIG_FUNCTIONS(X) \
	X(FcFini)

#define XLSX_FUNCTIONS(X) \
	X(chart_add_series) \
	X(chart_axis_get) \
	X(chart_axis_set_crossing) \
	X(chart_axis_set_label_position) \
	X(chart_axis_set_log_base) \
	X(chart_axis_set_max) \
	X(chart_axis_set_min) \
	X(chart_axis_set_name) \
	X(chart_axis_set_name_range) \
	X(chart_axis_set_num_format) \
	X(chart_legend_set_position) \
	X(chart_series_set_categories) \
	X(chart_series_set_fill) \
	X(chart_series_set_line) \
	X(chart_series_set_marker_fill) \
	X(chart_series_set_marker_line) \
	X(chart_series_set_marker_type) \
	X(chart_series_set_name) \
	X(chart_series_set_name_range) \
	X(chart_series_set_values) \
	X(chart_title_set_name) \
	X(chart_title_set_name_range) \
	X(format_set_bg_color) \
	X(format_set_bold) \
	X(format_set_font_color) \
	X(format_set_num_format) \
	X(lxw_format_get_xf_index) \
	X(lxw_get_sst_index) \
	X(lxw_strerror) \
	X(workbook_add_chart) \
	X(workbook_add_format) \
	X(workbook_add_worksheet) \
	X(workbook_close) \
	X(workbook_new) \
	X(workbook_set_properties) \
	X(worksheet_autofilter) \
	X(worksheet_fit_to_pages) \
	X(worksheet_freeze_panes) \
	X(worksheet_hide) \
	X(worksheet_insert_chart_opt) \
	X(worksheet_set_column) \
	X(worksheet_set_landscape) \
	X(worksheet_write_comment) \
	X(worksheet_write_number) \
	X(worksheet_write_string) \
	X(worksheet_write_url_opt)

#define GFX_POINTER(f) __typeof__(f) *f;
struct gfx_api {
	CAIRO_FUNCTIONS(GFX_POINTER)
	FONTCONFIG_FUNCTIONS(GFX_POINTER)
	XLSX_FUNCTIONS(GFX_POINTER)
};
#undef GFX_POINTER

extern struct gfx_api gfx;

/* Load the libraries (once; thread-safe).  Return 0, or -1 after saying
 * which library could not be loaded and why. */
int gfx_load_cairo(void);
int gfx_load_xlsx(void);
/* Did gfx_load_cairo() succeed? */
int gfx_cairo_loaded(void);

#endif
