/* unit.h: helpers shared by the unit tests. */
#ifndef FUSECC_UNIT_H
#define FUSECC_UNIT_H

#include <check.h>
#include <stdio.h>

#include "front/front.h"
#include "util/util.h"

/* Diagnostics captured into a buffer for the duration of a test. */
typedef struct Captured {
	char *text;
	size_t len;
	FILE *f;
} Captured;

static inline void capture_begin(Captured *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	diag_stream = c->f;
	diag_reset();
}

/* Ends the capture; the caller frees c->text. */
static inline const char *capture_end(Captured *c)
{
	fclose(c->f);
	diag_stream = NULL;
	return c->text ? c->text : "";
}

/* Writes `src` to a temporary .c file and runs the front end on it, diagnostics captured
 * in *cap (its previous text freed). NULL when the front end refused the input. */
Program *unit_parse(const char *src, Captured *cap);

#endif
