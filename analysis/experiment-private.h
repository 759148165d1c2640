/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What building an experiment keeps beside the public model
 * (experiment.h), for the files that build it and answer questions
 * about it: experiment.c, experiment-ask.c and experiment-names.c.
 * Nothing else includes it.
 */
#ifndef STORAN_EXPERIMENT_PRIVATE_H
#define STORAN_EXPERIMENT_PRIVATE_H

#include "../core/keymap.h"
#include "../core/resultset.h"

#include <stdint.h>

struct ex_private {
	struct keymap key_index;	/* key name -> index */
	struct keymap *value_index;	/* per key: value -> code */
	size_t value_index_alloc;
	struct keymap strings;		/* tool, op, metric -> code */
	char **string_v;
	size_t nstrings, strings_alloc;
	/* per profile: a measurement that has it (for its labels) */
	const struct measurement **profile_m;
	size_t *profile_side;
	/* per measurement: codes of tool, op, metric */
	uint32_t *tom;
	const char *side_key;		/* --compare, --ratio: names sides */
	/* per input: the file its grep prefix came from, or NULL when the
	 * input is the file itself (see input_file()) */
	char **input_file;
	size_t input_file_alloc;
	/* per key: the common prefix and suffix of its long values */
	size_t *trim_head, *trim_tail;
	int *trimmed;
	size_t *members;		/* every group's members, end to end */
	struct stats *stats;		/* every group's statistics */
};

/* A measurement the options select (--where, take). */
int ex_taken(const struct measurement *m,
	     const struct experiment_options *opt);

/* ---- input names as tokens (experiment-names.c) ---- */

#define MAX_TOKENS 16

struct name_tokens {
	char *copy, *copy2;
	const char *tok[2 * MAX_TOKENS];
	size_t n;
};
enum position_kind { POS_SAME, POS_TEST, POS_SIDE, POS_COUNTER };

enum position_kind ex_name_classify_position(struct name_tokens *names,
					  size_t n, const size_t *side_of,
					  size_t nsides, size_t pos);
int ex_name_is_separator(char c);
char *ex_name_without_extension(const char *name);
void ex_name_tokenize(const char *name, struct name_tokens *t);

#endif
