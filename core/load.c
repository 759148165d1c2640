/* Loading result sets and raw text alike; see load.h. */
#include "load.h"
#include "input.h"
#include "rs-json.h"
#include "strbuf.h"
#include "xalloc.h"
#include "../parsers/parser.h"

#include <string.h>

enum load_status load_input(const char *path, const struct ingest_options *opt,
			    struct result_set *rs, struct diag_list *diags)
{
	return load_input_hooked(path, opt, rs, diags, NULL, NULL);
}

enum load_status load_input_hooked(const char *path,
				   const struct ingest_options *opt,
				   struct result_set *rs,
				   struct diag_list *diags,
				   load_text_hook text_hook, void *arg)
{
	struct strbuf err = STRBUF_INIT;
	struct input in;
	enum load_status st = LOAD_OK;

	if (input_read(&in, path, &err)) {
		diag_add(diags, DIAG_ERROR, NULL, 0, "%s", strbuf_str(&err));
		strbuf_release(&err);
		return LOAD_TROUBLE;
	}
	if (!in.binary && rs_json_sniff(in.data, in.size)) {
		struct result_set one;

		result_set_init(&one);
		if (rs_json_read(in.name, in.data, in.size, &one, &err)) {
			diag_add(diags, DIAG_ERROR, NULL, 0, "%s",
				 strbuf_str(&err));
			st = LOAD_FAILED;
		} else {
			for (size_t i = 0; opt && i < one.n; i++)
				for (size_t j = 0; j < opt->labels.n; j++)
					labels_set(&one.m[i].labels,
						   opt->labels.v[j].key,
						   opt->labels.v[j].value);
			result_set_append(rs, &one);
		}
		result_set_release(&one);
	} else {
		if (text_hook)
			text_hook(&in, arg);
		if (ingest_input(&in, opt, rs, diags))
			st = LOAD_FAILED;
	}
	strbuf_release(&err);
	input_release(&in);
	return st;
}

enum load_status load_inputs(char *const *paths, int n,
			     const struct ingest_options *opt,
			     struct result_set *rs, struct diag_list *diags)
{
	enum load_status worst = LOAD_OK;

	for (int i = 0; i < n; i++) {
		enum load_status st = load_input(paths[i], opt, rs, diags);

		if (st > worst)
			worst = st;
	}
	return worst;
}
