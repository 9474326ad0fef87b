/* pragma.c: the `#pragma fuse` directive language. The clauses come from
 * pragmas/clauses.def; this file parses token lines into a Schedule, checks a Schedule
 * against its region, echoes it, and prints the Markdown reference.
 *
 * Errors never stop the parse: a bad clause is reported and skipped (up to its closing
 * parenthesis, or the rest of its line when the parentheses do not balance), so one run
 * shows every problem. Success is "no new errors were counted". */
#include "pragma.h"

#include <string.h>

/* Numbers larger than this are typos, and staying far below LONG_MAX keeps arithmetic on
 * tile sizes safe everywhere downstream. */
#define MAX_NUMBER (1L << 20)

/* What a clause takes in parentheses; see pragmas/clauses.def. */
typedef enum ArgForm {
	ARGS_NAME_OPT,
	ARGS_LOOPS,
	ARGS_LOOP_INT,
	ARGS_LOOP_OPT_INT,
	ARGS_TUNE,
	ARGS_SPEC,
	ARGS_WORD,
} ArgForm;

typedef enum ClauseId {
#define CLAUSE(id, name, form, value, syntax, summary, help, example) CL_##id,
#include "../../pragmas/clauses.def"
#undef CLAUSE
	CL_COUNT
} ClauseId;

typedef struct ClauseInfo {
	const char *name;
	ArgForm form;
	const char *value, *syntax, *summary, *help, *example;
} ClauseInfo;

static const ClauseInfo clauses[CL_COUNT] = {
#define CLAUSE(id, name, form, value, syntax, summary, help, example)                              \
	{name, form, value, syntax, summary, help, example},
#include "../../pragmas/clauses.def"
#undef CLAUSE
};

/* The names alone, in the shape closest_word wants. */
static const char *const clause_names[CL_COUNT] = {
#define CLAUSE(id, name, form, value, syntax, summary, help, example) name,
#include "../../pragmas/clauses.def"
#undef CLAUSE
};

typedef VEC(LoopArg) LoopArgVec;
typedef VEC(TuneAxis) TuneAxisVec;
typedef VEC(long) LongVec;
typedef VEC(const char *) NameVec;

/* Parse state: the line being read, and the clauses collected from all lines so far. */
typedef struct Parser {
	Program *p;
	const PTok *t;
	int n, i;
	Loc eol; /* just past the line's last token: where "found the end of the line" points */
	bool have_kernel;
	Loc kernel_loc;
	const char *name;
	LoopArgVec loops[CL_COUNT]; /* the loop-list clauses, indexed by ClauseId */
	TuneAxisVec tune;
	TuneAxisVec spec;
	const char *precision;
	Loc precision_loc;
} Parser;

/* ---- tokens ---- */

/* The current token, or NULL at the end of the line. */
static const PTok *peek(const Parser *ps) { return ps->i < ps->n ? &ps->t[ps->i] : NULL; }

/* True if the current token is the punctuator `s`. */
static bool at(const Parser *ps, const char *s)
{
	const PTok *t = peek(ps);
	return t && t->kind == PT_PUNCT && !strcmp(t->text, s);
}

/* Consumes the punctuator `s` if it comes next. */
static bool accept(Parser *ps, const char *s)
{
	if (!at(ps, s))
		return false;
	ps->i++;
	return true;
}

/* The current token's place, or the end of the line: where a missing thing belongs. */
static Loc here(const Parser *ps)
{
	const PTok *t = peek(ps);
	return t ? t->loc : ps->eol;
}

/* The current token quoted for a message ("found ..."), or "the end of the line". */
static const char *found(const Parser *ps)
{
	const PTok *t = peek(ps);
	return t ? arena_printf(&ps->p->arena, "'%s'", t->text) : "the end of the line";
}

/* Moves past the argument list that starts at token `from`, if its parentheses balance;
 * otherwise gives up on the rest of the line, since nothing after it can be trusted. */
static void skip_args(Parser *ps, int from)
{
	ps->i = ps->n;
	if (from >= ps->n || strcmp(ps->t[from].text, "(") || ps->t[from].kind != PT_PUNCT)
		return;
	int depth = 0;
	for (int k = from; k < ps->n; k++) {
		if (ps->t[k].kind != PT_PUNCT)
			continue;
		const char *s = ps->t[k].text;
		if (!strcmp(s, "(") || !strcmp(s, "{"))
			depth++;
		else if ((!strcmp(s, ")") || !strcmp(s, "}")) && --depth == 0) {
			ps->i = k + 1;
			return;
		}
	}
}

/* ---- numbers ---- */

/* Checks that a number token is a plain decimal integer in 1..MAX_NUMBER and stores it.
 * C would read 010 as 8 and 0x40 as 64; refusing them avoids any doubt about the value. */
static bool number_value(const PTok *t, const char *what, long *out)
{
	const char *s = t->text;
	if (s[0] == '0' && s[1] && strchr("xXbB", s[1])) {
		error_at(t->loc, "%s must be a decimal integer, found '%s'", what, s);
		return false;
	}
	if (strpbrk(s, ".eEpP")) {
		error_at(t->loc, "%s must be an integer, found '%s'", what, s);
		return false;
	}
	size_t ndig = strspn(s, "0123456789");
	if (s[ndig] || !ndig) {
		error_at(t->loc, "%s must be written with decimal digits only, found '%s'", what,
		         s);
		return false;
	}
	if (s[0] == '0' && s[1]) {
		error_at(t->loc, "%s '%s' has a leading zero, which C reads as octal", what, s);
		return false;
	}
	long v = 0;
	for (size_t k = 0; k < ndig && v <= MAX_NUMBER; k++)
		v = v * 10 + (s[k] - '0');
	if (v > MAX_NUMBER) {
		error_at(t->loc, "%s %s is too large (at most %ld)", what, s, MAX_NUMBER);
		return false;
	}
	if (v == 0) {
		error_at(t->loc, "%s must be a positive integer, found '%s'", what, s);
		return false;
	}
	*out = v;
	return true;
}

/* Reads one positive number (a tile size, a chunk count, ...) into *out. */
static bool parse_number(Parser *ps, const char *what, long *out)
{
	const PTok *t = peek(ps);
	const PTok *next = ps->i + 1 < ps->n ? &ps->t[ps->i + 1] : NULL;
	if (at(ps, "-") && next && next->kind == PT_NUMBER) {
		error_at(t->loc, "%s must be a positive integer, found '-%s'", what, next->text);
		return false;
	}
	if (!t || t->kind != PT_NUMBER) {
		/* Macros in an unknown pragma are not expanded, by gcc or by us: say so. */
		error_at(here(ps), "%s must be a positive integer, found %s%s", what, found(ps),
		         t && t->kind == PT_IDENT ? " (macros are not expanded in '#pragma fuse')"
		                                  : "");
		return false;
	}
	ps->i++;
	return number_value(t, what, out);
}

/* ---- clauses ---- */

/* Consumes the `(` of a clause that needs arguments and refuses an empty list. */
static bool expect_open(Parser *ps, const ClauseInfo *c)
{
	if (!accept(ps, "(")) {
		error_at(here(ps), "expected '(' after '%s', found %s (syntax: %s)", c->name,
		         found(ps), c->syntax);
		return false;
	}
	if (at(ps, ")")) {
		error_at(here(ps), "empty argument list in '%s()' (syntax: %s)", c->name,
		         c->syntax);
		return false;
	}
	return true;
}

/* Reports what stands where a clause's list should continue or close. */
static void error_close(const Parser *ps, const ClauseInfo *c)
{
	if (!peek(ps))
		error_at(ps->eol, "expected ')' to close '%s('", c->name);
	else
		error_at(here(ps), "expected ',' or ')' in '%s', found %s", c->name, found(ps));
}

/* kernel / kernel(name). A second `kernel` is reported, its arguments still checked. */
static bool parse_kernel(Parser *ps, const PTok *kw)
{
	bool dup = ps->have_kernel;
	if (dup) {
		error_at(kw->loc, "'kernel' appears twice in this region");
		note_at(ps->kernel_loc, "the first 'kernel' is here");
	} else {
		ps->have_kernel = true;
		ps->kernel_loc = kw->loc;
	}
	if (!accept(ps, "("))
		return true;
	const PTok *t = peek(ps);
	if (at(ps, ")")) {
		error_at(t->loc, "empty argument list in 'kernel()' (syntax: %s)",
		         clauses[CL_KERNEL].syntax);
		return false;
	}
	if (!t || t->kind != PT_IDENT) {
		error_at(here(ps), "expected a kernel name in 'kernel(...)', found %s", found(ps));
		return false;
	}
	ps->i++;
	if (!dup)
		ps->name = arena_strdup(&ps->p->arena, t->text);
	if (!accept(ps, ")")) {
		error_at(here(ps), "expected ')' after the kernel name, found %s", found(ps));
		return false;
	}
	return true;
}

/* Records one loop of a loop-list clause; a loop named twice for one clause kind
 * (in one clause or across lines) is an error, since the two could disagree. */
static void add_loop_arg(Parser *ps, ClauseId id, LoopArg a)
{
	LoopArgVec *v = &ps->loops[id];
	for (int k = 0; k < v->n; k++)
		if (!strcmp(v->v[k].loop, a.loop)) {
			error_at(a.loc, "loop '%s' appears twice in '%s'", a.loop,
			         clauses[id].name);
			note_at(v->v[k].loc, "'%s' first appears here", a.loop);
			return;
		}
	vec_push(*v, a);
}

/* One `loop`, `loop:N` or `loop[:N]` item, as the clause's form says. */
static bool parse_loop_arg(Parser *ps, ClauseId id, LoopArg *a)
{
	const ClauseInfo *c = &clauses[id];
	const PTok *t = peek(ps);
	if (!t || t->kind != PT_IDENT) {
		error_at(here(ps), "expected a loop name in '%s', found %s", c->name, found(ps));
		return false;
	}
	ps->i++;
	*a = (LoopArg){arena_strdup(&ps->p->arena, t->text), 0, t->loc};
	switch (c->form) {
	case ARGS_LOOPS:
		if (!at(ps, ":"))
			return true;
		error_at(here(ps),
		         "'%s' takes loop names only, found ':' after '%s' (sizes go in "
		         "'tile(%s:N)')",
		         c->name, t->text, t->text);
		return false;
	case ARGS_LOOP_INT:
		if (!accept(ps, ":")) {
			error_at(here(ps), "expected ':' after loop name '%s' in '%s', found %s",
			         t->text, c->name, found(ps));
			return false;
		}
		return parse_number(ps, c->value, &a->value);
	default:
		return !accept(ps, ":") || parse_number(ps, c->value, &a->value);
	}
}

/* parallel(...), tile(...), rolling(...), splitk(...): a comma-separated list of loops. */
static bool parse_loop_list(Parser *ps, ClauseId id)
{
	if (!expect_open(ps, &clauses[id]))
		return false;
	for (;;) {
		LoopArg a;
		if (!parse_loop_arg(ps, id, &a))
			return false;
		add_loop_arg(ps, id, a);
		if (accept(ps, ")"))
			return true;
		if (!accept(ps, ",")) {
			error_close(ps, &clauses[id]);
			return false;
		}
	}
}

/* The `{N, ...}` after a tune key; values must be distinct. The caller frees *vals. */
static bool parse_tune_values(Parser *ps, const char *key, LongVec *vals)
{
	if (!accept(ps, "{")) {
		error_at(here(ps),
		         "expected '{' after '%s:' in 'tune', found %s (write e.g. '%s:{64,128}')",
		         key, found(ps), key);
		return false;
	}
	if (at(ps, "}")) {
		error_at(here(ps), "empty value list for '%s' in 'tune'", key);
		return false;
	}
	for (;;) {
		Loc loc = here(ps);
		long v;
		if (!parse_number(ps, clauses[CL_TUNE].value, &v))
			return false;
		bool dup = false;
		for (int k = 0; k < vals->n; k++)
			dup |= vals->v[k] == v;
		if (dup)
			error_at(loc, "value %ld appears twice in the values of '%s'", v, key);
		else
			vec_push(*vals, v);
		if (accept(ps, "}"))
			return true;
		if (!accept(ps, ",")) {
			error_at(here(ps), "expected ',' or '}' in the values of '%s', found %s",
			         key, found(ps));
			return false;
		}
	}
}

/* Records a tune axis; a key given twice is an error (which list would win?). */
static void add_tune_axis(Parser *ps, TuneAxis ax)
{
	for (int k = 0; k < ps->tune.n; k++)
		if (!strcmp(ps->tune.v[k].key, ax.key)) {
			error_at(ax.loc, "'%s' appears twice in 'tune'", ax.key);
			note_at(ps->tune.v[k].loc, "'%s' first appears here", ax.key);
			return;
		}
	vec_push(ps->tune, ax);
}

/* One `key:{N, ...}` of tune. */
static bool parse_tune_axis(Parser *ps)
{
	const PTok *t = peek(ps);
	if (!t || t->kind != PT_IDENT) {
		error_at(here(ps), "expected a loop name, 'warps' or 'stages' in 'tune', found %s",
		         found(ps));
		return false;
	}
	ps->i++;
	if (!accept(ps, ":")) {
		error_at(here(ps), "expected ':' after '%s' in 'tune', found %s", t->text,
		         found(ps));
		return false;
	}
	LongVec vals = {0};
	bool ok = parse_tune_values(ps, t->text, &vals);
	if (ok) {
		TuneAxis ax = {arena_strdup(&ps->p->arena, t->text), NULL, vals.n, t->loc};
		ax.values = arena_alloc(&ps->p->arena, sizeof(long) * (size_t)vals.n);
		memcpy(ax.values, vals.v, sizeof(long) * (size_t)vals.n);
		add_tune_axis(ps, ax);
	}
	vec_free(vals);
	return ok;
}

/* tune(key:{N, ...}, ...). */
static bool parse_tune(Parser *ps)
{
	if (!expect_open(ps, &clauses[CL_TUNE]))
		return false;
	for (;;) {
		if (!parse_tune_axis(ps))
			return false;
		if (accept(ps, ")"))
			return true;
		if (!accept(ps, ",")) {
			error_close(ps, &clauses[CL_TUNE]);
			return false;
		}
	}
}

/* specialize(name: N, N, ..., name: N, ...), or name:{N, ...}: a name followed by ':'
 * starts the next parameter's list. */
static bool parse_spec(Parser *ps)
{
	const ClauseInfo *c = &clauses[CL_SPECIALIZE];
	if (!expect_open(ps, c))
		return false;
	for (;;) {
		const PTok *t = peek(ps);
		if (!t || t->kind != PT_IDENT) {
			error_at(here(ps), "expected an int parameter's name in 'specialize', found %s", found(ps));
			return false;
		}
		ps->i++;
		if (!accept(ps, ":")) {
			error_at(here(ps), "expected ':' after '%s' in 'specialize', found %s (write e.g. '%s: 64, 128')", t->text, found(ps), t->text);
			return false;
		}
		LongVec vals = {0};
		bool ok = true, braces = accept(ps, "{"), more = false;
		for (;;) {
			Loc loc = here(ps);
			long v;
			if (!(ok = parse_number(ps, c->value, &v)))
				break;
			bool dup = false;
			for (int k = 0; k < vals.n; k++)
				dup |= vals.v[k] == v;
			if (dup)
				error_at(loc, "value %ld appears twice in the values of '%s'", v, t->text);
			else
				vec_push(vals, v);
			if (braces && accept(ps, "}")) {
				more = accept(ps, ",");
				break;
			}
			if (!braces && at(ps, ")"))
				break;
			if (!accept(ps, ",")) {
				error_at(here(ps), "expected ',' or '%s' in the values of '%s', found %s", braces ? "}" : ")", t->text, found(ps));
				ok = false;
				break;
			}
			const PTok *n = peek(ps);
			if (!braces && n && n->kind == PT_IDENT) {
				more = true;
				break;
			}
		}
		if (ok) {
			TuneAxis ax = {arena_strdup(&ps->p->arena, t->text), NULL, vals.n, t->loc};
			ax.values = arena_alloc(&ps->p->arena, sizeof(long) * (size_t)vals.n);
			memcpy(ax.values, vals.v, sizeof(long) * (size_t)vals.n);
			bool twice = false;
			for (int k = 0; k < ps->spec.n; k++)
				if (!strcmp(ps->spec.v[k].key, ax.key)) {
					error_at(ax.loc, "'%s' appears twice in 'specialize'", ax.key);
					twice = true;
				}
			if (!twice)
				vec_push(ps->spec, ax);
		}
		vec_free(vals);
		if (!ok)
			return false;
		if (accept(ps, ")"))
			return true;
		if (!more) {
			error_close(ps, c);
			return false;
		}
	}
}

/* precision(word): the word one of the clause's, once per region. */
static bool parse_precision(Parser *ps)
{
	static const char *const words[] = {"fp32", "tf32"};
	const ClauseInfo *c = &clauses[CL_PRECISION];
	if (!expect_open(ps, c))
		return false;
	const PTok *t = peek(ps);
	if (!t || t->kind != PT_IDENT) {
		error_at(here(ps), "expected 'fp32' or 'tf32' in 'precision', found %s", found(ps));
		return false;
	}
	ps->i++;
	const char *w = NULL;
	for (size_t k = 0; k < sizeof words / sizeof *words; k++)
		if (!strcmp(t->text, words[k]))
			w = words[k];
	if (!w) {
		error_at(t->loc, "unknown precision '%s' (it is 'fp32', fp32 accuracy, or 'tf32', one tf32 product)", t->text);
		return false;
	}
	if (ps->precision) {
		error_at(t->loc, "'precision' appears twice in this region");
		note_at(ps->precision_loc, "the first 'precision' is here");
	} else {
		ps->precision = w;
		ps->precision_loc = t->loc;
	}
	if (!accept(ps, ")")) {
		error_close(ps, c);
		return false;
	}
	return true;
}

/* The clause named `name`, or -1. */
static int clause_lookup(const char *name)
{
	for (int k = 0; k < CL_COUNT; k++)
		if (!strcmp(clause_names[k], name))
			return k;
	return -1;
}

/* Reports an unknown clause, suggesting the nearest known one or listing them all. */
static void error_unknown(const PTok *t)
{
	const char *near = closest_word(t->text, clause_names, CL_COUNT);
	if (near) {
		error_at(t->loc, "unknown clause '%s'; did you mean '%s'?", t->text, near);
		return;
	}
	StrBuf b = {0};
	for (int k = 0; k < CL_COUNT; k++)
		sb_printf(&b, "%s%s", k ? ", " : "", clause_names[k]);
	error_at(t->loc, "unknown clause '%s' (the clauses are: %s)", t->text, b.s);
	sb_free(&b);
}

/* Parses one clause at the current token. `first` marks the region's very first clause,
 * which must be `kernel`: that is what makes the pragma lines a region. */
static void parse_clause(Parser *ps, bool first)
{
	const PTok *t = peek(ps);
	int id = t->kind == PT_IDENT ? clause_lookup(t->text) : -1;
	ps->i++;
	if (t->kind != PT_IDENT) {
		if (first)
			error_at(t->loc, "a fuse region must start with 'kernel'");
		else
			error_at(t->loc, "expected a clause name, found '%s'", t->text);
		return;
	}
	if (id < 0) {
		error_unknown(t);
		skip_args(ps, ps->i);
		return;
	}
	if (first && id != CL_KERNEL)
		error_at(t->loc, "a fuse region must start with 'kernel'");
	int start = ps->i;
	bool ok;
	switch (clauses[id].form) {
	case ARGS_NAME_OPT:
		ok = parse_kernel(ps, t);
		break;
	case ARGS_TUNE:
		ok = parse_tune(ps);
		break;
	case ARGS_SPEC:
		ok = parse_spec(ps);
		break;
	case ARGS_WORD:
		ok = parse_precision(ps);
		break;
	default:
		ok = parse_loop_list(ps, (ClauseId)id);
		break;
	}
	if (!ok)
		skip_args(ps, start);
}

/* Parses the clauses of one line; commas between clauses are optional. */
static void parse_line(Parser *ps, const PragmaLine *line, bool first_line)
{
	ps->t = line->toks;
	ps->n = line->ntoks;
	ps->i = 0;
	ps->eol = line->loc;
	if (line->ntoks > 0) {
		const PTok *last = &line->toks[line->ntoks - 1];
		ps->eol = last->loc;
		ps->eol.col += (int)strlen(last->text);
	}
	if (first_line && !line->ntoks)
		error_at(line->loc, "a fuse region must start with 'kernel'");
	while (peek(ps)) {
		parse_clause(ps, first_line && ps->i == 0);
		if (accept(ps, ",") && !peek(ps))
			error_at(ps->eol, "expected a clause after ','");
	}
}

/* Copies a heap vector of loop arguments into the arena. */
static LoopArg *copy_loops(Program *p, const LoopArgVec *v, int *n)
{
	*n = v->n;
	if (!v->n)
		return NULL;
	LoopArg *a = arena_alloc(&p->arena, sizeof(LoopArg) * (size_t)v->n);
	memcpy(a, v->v, sizeof(LoopArg) * (size_t)v->n);
	return a;
}

/* Moves what the parser collected into *out and frees the parser's vectors. */
static void finish(Parser *ps, Schedule *out)
{
	Program *p = ps->p;
	out->name = ps->name;
	out->parallel = copy_loops(p, &ps->loops[CL_PARALLEL], &out->nparallel);
	out->tile = copy_loops(p, &ps->loops[CL_TILE], &out->ntile);
	out->rolling = copy_loops(p, &ps->loops[CL_ROLLING], &out->nrolling);
	out->splitk = copy_loops(p, &ps->loops[CL_SPLITK], &out->nsplitk);
	out->ntune = ps->tune.n;
	if (ps->tune.n) {
		out->tune = arena_alloc(&p->arena, sizeof(TuneAxis) * (size_t)ps->tune.n);
		memcpy(out->tune, ps->tune.v, sizeof(TuneAxis) * (size_t)ps->tune.n);
	}
	out->tf32 = ps->precision && !strcmp(ps->precision, "tf32");
	out->precision_loc = ps->precision_loc;
	out->nspec = ps->spec.n;
	if (ps->spec.n) {
		out->spec = arena_alloc(&p->arena, sizeof(TuneAxis) * (size_t)ps->spec.n);
		memcpy(out->spec, ps->spec.v, sizeof(TuneAxis) * (size_t)ps->spec.n);
	}
	for (int k = 0; k < CL_COUNT; k++)
		vec_free(ps->loops[k]);
	vec_free(ps->tune);
	vec_free(ps->spec);
}

/* Parses every line, then hands over what was collected even after errors, so callers
 * can still look at the partial schedule. */
bool pragma_parse(Program *p, const PragmaLine *lines, int nlines, Schedule *out)
{
	int errors = error_count();
	Parser ps = {.p = p};
	*out = (Schedule){.loc = nlines > 0 ? lines[0].loc : (Loc){0}};
	if (nlines <= 0)
		error_at(out->loc, "a fuse region must start with 'kernel'");
	for (int l = 0; l < nlines; l++)
		parse_line(&ps, &lines[l], l == 0);
	finish(&ps, out);
	return error_count() == errors;
}

/* ---- checking against the region ---- */

/* True if `name` is among `names`. */
static bool has_name(const NameVec *names, const char *name)
{
	for (int k = 0; k < names->n; k++)
		if (!strcmp(names->v[k], name))
			return true;
	return false;
}

/* Adds the iterator names of every loop in s to *names, once each: sibling loops that
 * share an iterator name are one loop to the schedule. */
static void collect_loops(const Stmt *s, NameVec *names)
{
	if (!s || (s->kind != ST_FOR && s->kind != ST_BLOCK && s->kind != ST_IF))
		return;
	if (s->kind == ST_FOR && s->var && s->var->name && !has_name(names, s->var->name))
		vec_push(*names, s->var->name);
	for (int k = 0; k < s->nbody; k++)
		collect_loops(s->body[k], names);
}

/* Reports a loop name that the region does not have, with the nearest real one. Any
 * one-letter name is "near" any other, so for those the region's loops are listed. */
static void check_loop(const NameVec *names, const char *name, Loc loc)
{
	if (has_name(names, name))
		return;
	const char *near = strlen(name) > 1 ? closest_word(name, names->v, names->n) : NULL;
	if (near) {
		error_at(loc, "no loop named '%s' in this region; did you mean '%s'?", name, near);
		return;
	}
	StrBuf b = {0};
	for (int k = 0; k < names->n; k++)
		sb_printf(&b, "%s%s", k ? ", " : "", names->v[k]);
	error_at(loc, "no loop named '%s' in this region (its loops: %s)", name,
	         b.s ? b.s : "none");
	sb_free(&b);
}

/* Checks every loop of one clause's list. */
static void check_loops(const NameVec *names, const LoopArg *a, int n)
{
	for (int k = 0; k < n; k++)
		check_loop(names, a[k].loop, a[k].loc);
}

/* Reports loops that appear in both lists: each names a different way to run the loop. */
static void check_disjoint(const LoopArg *a, int na, ClauseId ca, const LoopArg *b, int nb,
                           ClauseId cb)
{
	for (int k = 0; k < nb; k++)
		for (int m = 0; m < na; m++)
			if (!strcmp(a[m].loop, b[k].loop)) {
				error_at(b[k].loc, "loop '%s' cannot be both '%s' and '%s'",
				         b[k].loop, clauses[ca].name, clauses[cb].name);
				note_at(a[m].loc, "'%s' is made '%s' here", a[m].loop,
				        clauses[ca].name);
			}
}

/* Checks one tune axis: warps and stages have fixed ranges, other keys are loops.
 * TuneAxis keeps no place per value, so range errors point at the key. */
static void check_tune_axis(const NameVec *names, const TuneAxis *ax)
{
	for (int k = 0; k < ax->nvalues; k++) {
		long v = ax->values[k];
		if (!strcmp(ax->key, "warps") && (v < 1 || v > 16 || (v & (v - 1))))
			error_at(ax->loc, "'warps' must be a power of two from 1 to 16, found %ld",
			         v);
		else if (!strcmp(ax->key, "stages") && (v < 1 || v > 8))
			error_at(ax->loc, "'stages' must be from 1 to 8, found %ld", v);
	}
	if (strcmp(ax->key, "warps") && strcmp(ax->key, "stages"))
		check_loop(names, ax->key, ax->loc);
}

/* Names are checked against the loops' iterator names anywhere in the region; whether
 * the requests are legal for the dependences is the analyzer's business. */
bool schedule_check(const Schedule *s, const Stmt *region_loop)
{
	int errors = error_count();
	NameVec names = {0};
	collect_loops(region_loop, &names);
	check_loops(&names, s->parallel, s->nparallel);
	check_loops(&names, s->tile, s->ntile);
	check_loops(&names, s->rolling, s->nrolling);
	check_loops(&names, s->splitk, s->nsplitk);
	for (int k = 0; k < s->ntune; k++)
		check_tune_axis(&names, &s->tune[k]);
	check_disjoint(s->parallel, s->nparallel, CL_PARALLEL, s->rolling, s->nrolling, CL_ROLLING);
	check_disjoint(s->parallel, s->nparallel, CL_PARALLEL, s->splitk, s->nsplitk, CL_SPLITK);
	check_disjoint(s->rolling, s->nrolling, CL_ROLLING, s->splitk, s->nsplitk, CL_SPLITK);
	vec_free(names);
	return error_count() == errors;
}

/* ---- printing ---- */

/* ` name(a, b:64, ...)`; nothing when the list is empty. */
static void print_loops(StrBuf *b, ClauseId id, const LoopArg *a, int n)
{
	if (!n)
		return;
	sb_printf(b, " %s(", clauses[id].name);
	for (int k = 0; k < n; k++) {
		sb_printf(b, "%s%s", k ? ", " : "", a[k].loop);
		if (a[k].value)
			sb_printf(b, ":%ld", a[k].value);
	}
	sb_putc(b, ')');
}

/* ` tune(i:{64,128}, warps:{4,8})`; nothing when there are no axes. */
static void print_tune(StrBuf *b, ClauseId id, const TuneAxis *ax, int n)
{
	if (!n)
		return;
	sb_printf(b, " %s(", clauses[id].name);
	for (int k = 0; k < n; k++) {
		sb_printf(b, "%s%s:{", k ? ", " : "", ax[k].key);
		for (int m = 0; m < ax[k].nvalues; m++)
			sb_printf(b, "%s%ld", m ? "," : "", ax[k].values[m]);
		sb_putc(b, '}');
	}
	sb_putc(b, ')');
}

/* Clauses in clauses.def order, each list as written; absent clauses are omitted. */
void print_schedule(StrBuf *b, const Schedule *s)
{
	sb_puts(b, clauses[CL_KERNEL].name);
	if (s->name)
		sb_printf(b, "(%s)", s->name);
	print_loops(b, CL_PARALLEL, s->parallel, s->nparallel);
	print_loops(b, CL_TILE, s->tile, s->ntile);
	print_loops(b, CL_ROLLING, s->rolling, s->nrolling);
	print_loops(b, CL_SPLITK, s->splitk, s->nsplitk);
	print_tune(b, CL_TUNE, s->tune, s->ntune);
	print_tune(b, CL_SPECIALIZE, s->spec, s->nspec);
	if (s->tf32)
		sb_printf(b, " %s(tf32)", clauses[CL_PRECISION].name);
}

/* The syntax alternatives ("a / b") as Markdown code: "`a` / `b`". */
static void print_syntax_md(StrBuf *b, const char *syntax)
{
	for (const char *s = syntax;;) {
		const char *sep = strstr(s, " / ");
		size_t n = sep ? (size_t)(sep - s) : strlen(s);
		sb_printf(b, "`%.*s`", (int)n, s);
		if (!sep)
			return;
		sb_puts(b, " / ");
		s = sep + 3;
	}
}

/* The rules that hold for every clause, before the table. */
static void print_reference_intro(StrBuf *b)
{
	sb_puts(b, "<!-- Generated from pragmas/clauses.def by `fusecc --help-pragmas`. "
	           "Do not edit. -->\n"
	           "# `#pragma fuse` directives\n\n"
	           "A *region* is the `for` statement that follows `#pragma fuse kernel`: "
	           "fusecc turns it into one fused GPU operator. gcc and clang ignore these "
	           "pragmas, so the same file stays the CPU reference.\n\n"
	           "- Several `#pragma fuse` lines before one `for` accumulate; the first must "
	           "start with `kernel`.\n"
	           "- Clauses are separated by spaces or commas.\n"
	           "- Loops are named by their iterator variable; sibling loops that share a "
	           "name are one loop to the schedule.\n");
	sb_printf(b, "- Numbers are positive decimal integers, at most %ld.\n", MAX_NUMBER);
	sb_puts(b, "- Unknown clauses, loops that do not exist and illegal requests are errors, "
	           "never silently ignored.\n\n");
}

/* Intro, a table of all clauses, then a section per clause: docs/directives.md. */
void print_pragma_reference(StrBuf *b)
{
	print_reference_intro(b);
	sb_puts(b, "| clause | syntax | meaning |\n|---|---|---|\n");
	for (int k = 0; k < CL_COUNT; k++) {
		sb_printf(b, "| [`%s`](#%s) | ", clauses[k].name, clauses[k].name);
		print_syntax_md(b, clauses[k].syntax);
		sb_printf(b, " | %s |\n", clauses[k].summary);
	}
	for (int k = 0; k < CL_COUNT; k++) {
		sb_printf(b, "\n## %s\n\n", clauses[k].name);
		print_syntax_md(b, clauses[k].syntax);
		sb_printf(b, "\n\n%s\n\n```c\n%s\n```\n", clauses[k].help, clauses[k].example);
	}
}
