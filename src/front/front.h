/* front.h: the front end: C source with `#pragma fuse` to the loop-scalar IR (libclang). */
#ifndef FUSECC_FRONT_H
#define FUSECC_FRONT_H

#include "../ir/ir.h"

typedef struct FrontOptions {
	const char *const *clang_args; /* -I/-D/-U/-std and raw `--` arguments, in order */
	int nclang_args;
	const char *include_dir; /* fusecc's own include/ (for fusecc.h), searched last */
	/* Specialisation (the GPU printers' run-time head dims): in function spec_fn, every
	 * read of int parameter spec_names[k] is the constant spec_values[k]; the parameter
	 * stays in the list (the launcher still takes it). NULL: none. */
	const char *spec_fn;
	const char *const *spec_names;
	const long *spec_values;
	int nspec;
	/* A second parse of an input already parsed: the diagnostics keep quoting the first
	 * Program's copy of the source, which outlives this one, and libclang's translation
	 * unit of the first parse is used again (the file must not have changed). */
	bool reparse;
} FrontOptions;

/* Parses `path` and builds the IR of every function that holds `#pragma fuse kernel`
 * regions, with each region's schedule parsed and checked against its loops. Reports
 * every problem with error_at and returns NULL if there was any. On success the caller
 * owns the Program (program_free). `deps`, if not NULL, receives the input and every
 * file it includes (for -MD), as arena strings. */
Program *front_parse(const char *path, const FrontOptions *opt, StrVec *deps);
/* flat.c: gives each pointer parameter of f (Var.flat) the dims its flat subscripts
 * nest in, and rewrites those subscripts one per dimension; lists in f->divs the set-up
 * divisions of sizes it reads as exact. o: the specialisation of a reparse, or NULL.
 * Reports and returns false when they do not nest. */
bool front_delinearize(Program *p, Func *f, const FrontOptions *o);
/* Appends to out (arena strings of p) the name of every function the file front_parse
 * parsed last defines with external linkage, helpers as well as region functions (outside
 * system headers): what a second build of the file linked beside the first must rename. */
void front_external_functions(Program *p, StrVec *out);
/* Frees the translation unit front_parse keeps for the next reparse. */
void front_release(void);
void program_free(Program *p);

/* The libclang version string ("Debian clang version 16.0.6 ..."); the caller frees it. */
char *front_clang_version(void);

#endif
