/* pragma.h: the `#pragma fuse` directive language. The clauses are defined once, in
 * pragmas/clauses.def; the parser, `--help-pragmas` and docs/directives.md derive from it. */
#ifndef FUSECC_PRAGMA_H
#define FUSECC_PRAGMA_H

#include "../ir/ir.h"

/* One token of a pragma line, as the front end's token scan found it. */
typedef enum PTokKind { PT_IDENT, PT_NUMBER, PT_PUNCT, PT_OTHER } PTokKind;
typedef struct PTok {
	PTokKind kind;
	const char *text;
	Loc loc;
} PTok;

/* One `#pragma fuse ...` line: the tokens after `fuse`, continuation lines joined. */
typedef struct PragmaLine {
	Loc loc; /* of the `#` */
	PTok *toks;
	int ntoks;
} PragmaLine;

/* Parses the lines attached to one `for` statement into *out (clauses accumulate across
 * lines). Reports every problem with error_at and returns false if there was any. The
 * first line must start with `kernel`; only syntax is checked here. */
bool pragma_parse(Program *p, const PragmaLine *lines, int nlines, Schedule *out);

/* Checks a parsed schedule against its region: every loop named exists in the region,
 * no loop is both parallel and rolling/splitk, at most one of rolling/splitk, ... */
bool schedule_check(const Schedule *s, const Stmt *region_loop);

/* Normalised echo: `kernel(attn) parallel(b, h, i) tile(i:64, j:64) rolling(j)`. */
void print_schedule(StrBuf *b, const Schedule *s);

/* The directive reference in Markdown, generated from pragmas/clauses.def. */
void print_pragma_reference(StrBuf *b);

#endif
