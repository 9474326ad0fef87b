/* macro.c: operators written through macros (see macro.h).
 *
 * For an expression that names a macro, the tokens of its extent are expanded as the
 * preprocessor does (object-like and function-like macros, arguments expanded before
 * they are substituted, each macro hidden while its own expansion is rescanned), then
 * walked along libclang's tree of the expression: a parenthesis, subscript, call or
 * conditional consumes its punctuation, a name or literal one token, and the token
 * after a binary operator's left operand is its operator. Every expected token is
 * checked, and the walk must consume the expansion exactly; otherwise the expression
 * gets no operators (nothing is guessed). */
#include "macro.h"

#include <string.h>

#include "../util/util.h"

typedef struct MTok {
	const char *text;
	CXTokenKind kind;
	CXSourceLocation loc; /* the token's, or for a macro body's, the outermost invocation's */
} MTok;

typedef VEC(MTok) TokVec;

typedef struct MacroDef {
	const char *name;
	CXCursor cursor;
	bool twice;   /* the name is defined more than once: which one applies is unknown */
	bool read;    /* params and body below are filled */
	bool usable;  /* function-like macros with `...`, bodies with # or ##: no */
	bool fnlike;
	int nparams;
	const char **params;
	TokVec body;
} MacroDef;

typedef struct OpRec {
	CXCursor c;
	const char *op;
	CXSourceLocation loc;
} OpRec;

struct MacroOps {
	CXTranslationUnit tu;
	Arena arena;
	VEC(MacroDef) defs; /* sorted by name */
	VEC(OpRec) ops;
	CXSourceLocation body_end; /* of the function being scanned */
};

enum { MAX_EXPANSION_DEPTH = 64, MAX_EXPANSION_TOKENS = 100000 };

static const char *tok_text(MacroOps *m, CXToken t)
{
	CXString s = clang_getTokenSpelling(m->tu, t);
	const char *r = arena_strdup(&m->arena, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

static enum CXChildVisitResult collect_def(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	MacroOps *m = d;
	if (clang_getCursorKind(c) == CXCursor_MacroDefinition) {
		CXString s = clang_getCursorSpelling(c);
		MacroDef def = {.name = arena_strdup(&m->arena, clang_getCString(s)), .cursor = c};
		clang_disposeString(s);
		vec_push(m->defs, def);
	}
	return CXChildVisit_Continue;
}

static int def_cmp(const void *a, const void *b) { return strcmp(((const MacroDef *)a)->name, ((const MacroDef *)b)->name); }

MacroOps *macro_ops_new(CXTranslationUnit tu)
{
	MacroOps *m = calloc(1, sizeof *m);
	m->tu = tu;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_def, m);
	if (m->defs.n)
		qsort(m->defs.v, (size_t)m->defs.n, sizeof *m->defs.v, def_cmp);
	/* Keep one entry per name, marked when there were several. */
	int w = 0;
	for (int i = 0; i < m->defs.n; i++) {
		if (w && !strcmp(m->defs.v[w - 1].name, m->defs.v[i].name)) {
			m->defs.v[w - 1].twice = true;
			continue;
		}
		m->defs.v[w++] = m->defs.v[i];
	}
	m->defs.n = w;
	return m;
}

void macro_ops_free(MacroOps *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->defs.n; i++)
		vec_free(m->defs.v[i].body);
	vec_free(m->defs);
	vec_free(m->ops);
	arena_free(&m->arena);
	free(m);
}

/* Reads a definition's tokens, `NAME ( params ) body` or `NAME body`, once. */
static void read_def(MacroOps *m, MacroDef *d)
{
	if (d->read)
		return;
	d->read = true;
	d->fnlike = clang_Cursor_isMacroFunctionLike(d->cursor);
	CXToken *toks;
	unsigned n;
	clang_tokenize(m->tu, clang_getCursorExtent(d->cursor), &toks, &n);
	unsigned i = 1;
	bool ok = n >= 1;
	if (ok && d->fnlike) {
		StrVec ps = {0};
		ok = n >= 3 && !strcmp(tok_text(m, toks[1]), "(");
		for (i = 2; ok && i < n; i++) {
			const char *t = tok_text(m, toks[i]);
			if (!strcmp(t, ")"))
				break;
			if (!strcmp(t, "..."))
				ok = false;
			else if (strcmp(t, ","))
				vec_push(ps, t);
		}
		ok = ok && i < n;
		i++;
		d->nparams = ps.n;
		d->params = arena_alloc(&m->arena, sizeof(char *) * (size_t)(ps.n ? ps.n : 1));
		if (ps.n)
			memcpy(d->params, ps.v, sizeof(char *) * (size_t)ps.n);
		vec_free(ps);
	}
	for (; ok && i < n; i++) {
		MTok t = {tok_text(m, toks[i]), clang_getTokenKind(toks[i]), clang_getTokenLocation(m->tu, toks[i])};
		if (t.kind == CXToken_Comment)
			continue;
		if (!strcmp(t.text, "#") || !strcmp(t.text, "##"))
			ok = false;
		vec_push(d->body, t);
	}
	d->usable = ok;
	clang_disposeTokens(m->tu, toks, n);
}

static MacroDef *find_def(MacroOps *m, const MTok *t)
{
	if (t->kind != CXToken_Identifier)
		return NULL;
	MacroDef key = {.name = t->text};
	MacroDef *d = m->defs.n ? bsearch(&key, m->defs.v, (size_t)m->defs.n, sizeof *m->defs.v, def_cmp) : NULL;
	if (d)
		read_def(m, d);
	return d;
}

typedef struct Active {
	const char *name;
	const struct Active *up;
} Active;

static bool is_active(const Active *a, const char *name)
{
	for (; a; a = a->up)
		if (!strcmp(a->name, name))
			return true;
	return false;
}

static bool expand(MacroOps *m, const MTok *in, int n, const CXSourceLocation *at, const Active *act, int depth, TokVec *out);

/* Substitutes the (expanded) arguments into d's body and rescans the result. */
static bool expand_call(MacroOps *m, MacroDef *d, const TokVec *args, const CXSourceLocation *at, const Active *act, int depth, TokVec *out)
{
	TokVec sub = {0};
	bool ok = true;
	for (int i = 0; i < d->body.n; i++) {
		MTok t = d->body.v[i];
		int p = -1;
		for (int k = 0; t.kind == CXToken_Identifier && k < d->nparams; k++)
			if (!strcmp(t.text, d->params[k]))
				p = k;
		if (p < 0) {
			t.loc = *at;
			vec_push(sub, t);
			continue;
		}
		for (int k = 0; k < args[p].n; k++)
			vec_push(sub, args[p].v[k]);
	}
	Active me = {d->name, act};
	ok = expand(m, sub.v, sub.n, at, &me, depth + 1, out);
	vec_free(sub);
	return ok;
}

/* Expands in[0..n) onto *out; tokens of macro bodies get location *at (NULL: the
 * invocation's own). False where the expansion is beyond this expander. */
static bool expand(MacroOps *m, const MTok *in, int n, const CXSourceLocation *at, const Active *act, int depth, TokVec *out)
{
	if (depth > MAX_EXPANSION_DEPTH)
		return false;
	for (int i = 0; i < n; i++) {
		if (out->n > MAX_EXPANSION_TOKENS)
			return false;
		MacroDef *d = find_def(m, &in[i]);
		if (!d || is_active(act, d->name) || (d->fnlike && (i + 1 >= n || strcmp(in[i + 1].text, "(")))) {
			vec_push(*out, in[i]);
			continue;
		}
		if (d->twice || !d->usable)
			return false;
		const CXSourceLocation *loc = at ? at : &in[i].loc;
		if (!d->fnlike) {
			Active me = {d->name, act};
			TokVec body = {0};
			for (int k = 0; k < d->body.n; k++) {
				MTok t = d->body.v[k];
				t.loc = *loc;
				vec_push(body, t);
			}
			bool ok = expand(m, body.v, body.n, loc, &me, depth + 1, out);
			vec_free(body);
			if (!ok)
				return false;
			continue;
		}
		/* The arguments: balanced token runs split at the top-level commas. */
		int nargs = d->nparams ? d->nparams : 1;
		TokVec *raw = calloc((size_t)nargs, sizeof *raw);
		int a = 0, level = 0, j = i + 2;
		bool ok = true;
		for (; j < n && ok; j++) {
			const char *t = in[j].text;
			if (!strcmp(t, ")") && level == 0)
				break;
			if (!strcmp(t, "(") || !strcmp(t, "["))
				level++;
			else if (!strcmp(t, ")") || !strcmp(t, "]"))
				level--;
			if (!strcmp(t, ",") && level == 0) {
				ok = ++a < nargs;
				continue;
			}
			vec_push(raw[a], in[j]);
		}
		ok = ok && j < n && a == nargs - 1 && (d->nparams || raw[0].n == 0);
		TokVec *args = calloc((size_t)nargs, sizeof *args);
		for (int k = 0; ok && k < nargs; k++)
			ok = expand(m, raw[k].v, raw[k].n, at, act, depth + 1, &args[k]);
		ok = ok && expand_call(m, d, args, loc, act, depth, out);
		for (int k = 0; k < nargs; k++) {
			vec_free(raw[k]);
			vec_free(args[k]);
		}
		free(raw);
		free(args);
		if (!ok)
			return false;
		i = j;
	}
	return true;
}

/* ---- walking the expansion along libclang's tree ---- */

typedef VEC(CXCursor) CursorVec;

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	vec_push(*(CursorVec *)d, c);
	return CXChildVisit_Continue;
}

typedef struct Walk {
	MacroOps *m;
	const MTok *t;
	int n, pos;
	VEC(OpRec) got;
} Walk;

static bool eat(Walk *w, const char *text)
{
	if (w->pos < w->n && !strcmp(w->t[w->pos].text, text)) {
		w->pos++;
		return true;
	}
	return false;
}

/* Consumes the token of operator cursor c: punctuation, recorded as c's operator. */
static bool take_op(Walk *w, CXCursor c)
{
	if (w->pos >= w->n || w->t[w->pos].kind != CXToken_Punctuation)
		return false;
	OpRec r = {c, w->t[w->pos].text, w->t[w->pos].loc};
	vec_push(w->got, r);
	w->pos++;
	return true;
}

/* Consumes a parenthesised type name `( ... )`. */
static bool skip_parens(Walk *w)
{
	if (!eat(w, "("))
		return false;
	for (int level = 1; w->pos < w->n; w->pos++) {
		const char *t = w->t[w->pos].text;
		level += !strcmp(t, "(") - !strcmp(t, ")");
		if (!level) {
			w->pos++;
			return true;
		}
	}
	return false;
}

static bool walk(Walk *w, CXCursor c);

static bool walk_children(Walk *w, CXCursor c)
{
	CursorVec ch = {0};
	clang_visitChildren(c, collect_child, &ch);
	enum CXCursorKind k = clang_getCursorKind(c);
	bool ok = false;
	switch (k) {
	case CXCursor_UnexposedExpr: /* implicit conversions */
		ok = ch.n == 1 && walk(w, ch.v[0]);
		break;
	case CXCursor_ParenExpr:
		ok = ch.n == 1 && eat(w, "(") && walk(w, ch.v[0]) && eat(w, ")");
		break;
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		ok = ch.n == 2 && walk(w, ch.v[0]) && take_op(w, c) && walk(w, ch.v[1]);
		break;
	case CXCursor_UnaryOperator:
		if (ch.n == 1 && w->pos < w->n && w->t[w->pos].kind == CXToken_Punctuation && strcmp(w->t[w->pos].text, "("))
			ok = take_op(w, c) && walk(w, ch.v[0]);
		else
			ok = ch.n == 1 && walk(w, ch.v[0]) && take_op(w, c);
		break;
	case CXCursor_ConditionalOperator:
		ok = ch.n == 3 && walk(w, ch.v[0]) && eat(w, "?") && walk(w, ch.v[1]) && eat(w, ":") && walk(w, ch.v[2]);
		break;
	case CXCursor_ArraySubscriptExpr:
		ok = ch.n == 2 && walk(w, ch.v[0]) && eat(w, "[") && walk(w, ch.v[1]) && eat(w, "]");
		break;
	case CXCursor_CallExpr:
		ok = ch.n >= 1 && walk(w, ch.v[0]) && eat(w, "(");
		for (int i = 1; ok && i < ch.n; i++)
			ok = (i == 1 || eat(w, ",")) && walk(w, ch.v[i]);
		ok = ok && eat(w, ")");
		break;
	case CXCursor_CStyleCastExpr:
		ok = ch.n >= 1 && clang_isExpression(clang_getCursorKind(ch.v[ch.n - 1])) && skip_parens(w) && walk(w, ch.v[ch.n - 1]);
		break;
	default: break;
	}
	vec_free(ch);
	return ok;
}

static bool walk(Walk *w, CXCursor c)
{
	switch (clang_getCursorKind(c)) {
	case CXCursor_DeclRefExpr: {
		CXString s = clang_getCursorSpelling(c);
		bool ok = w->pos < w->n && w->t[w->pos].kind == CXToken_Identifier && !strcmp(w->t[w->pos].text, clang_getCString(s));
		clang_disposeString(s);
		return ok && ++w->pos;
	}
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_CharacterLiteral:
		/* a literal, or a predefined macro (__FLT_MAX__) nothing defines in the TU */
		return w->pos < w->n && (w->t[w->pos].kind == CXToken_Literal || w->t[w->pos].kind == CXToken_Identifier) && ++w->pos;
	default: return walk_children(w, c);
	}
}

/* ---- the scan ---- */

/* The tokens of top-level expression c, comments left out. libclang's extent of an
 * expression that begins or ends in a macro argument (`MUL(x, 2.0f)`) stops at the
 * argument: the start is widened to the invocation (the expansion location of the
 * cursor's location) and, with `extend`, the end past the closing parentheses still open
 * (which tokenizes the rest of the function: only for expressions that name a macro). */
static void expr_tokens(MacroOps *m, CXCursor c, bool extend, TokVec *out)
{
	CXSourceRange ext = clang_getCursorExtent(c);
	CXFile f;
	unsigned start, at, end, arg_end;
	clang_getExpansionLocation(clang_getRangeStart(ext), &f, NULL, NULL, &start);
	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &at);
	clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &end);
	clang_getFileLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &arg_end);
	if (at < start)
		start = at;
	if (arg_end > end) /* the start of the last token, in an argument */
		end = arg_end + 1;
	CXToken *toks;
	unsigned n;
	CXSourceLocation last = extend ? m->body_end : clang_getLocationForOffset(m->tu, f, end);
	clang_tokenize(m->tu, clang_getRange(clang_getLocationForOffset(m->tu, f, start), last), &toks, &n);
	int level = 0;
	for (unsigned i = 0; i < n; i++) {
		CXSourceLocation l = clang_getTokenLocation(m->tu, toks[i]);
		unsigned off;
		clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
		if (off >= end && level <= 0)
			break;
		MTok t = {tok_text(m, toks[i]), clang_getTokenKind(toks[i]), l};
		if (t.kind == CXToken_Comment)
			continue;
		level += (!strcmp(t.text, "(") || !strcmp(t.text, "[")) - (!strcmp(t.text, ")") || !strcmp(t.text, "]"));
		vec_push(*out, t);
	}
	clang_disposeTokens(m->tu, toks, n);
}

/* Expands and walks top-level expression c if one of its tokens names a macro. */
static void scan_expr(MacroOps *m, CXCursor c)
{
	TokVec in = {0}, out = {0};
	expr_tokens(m, c, false, &in);
	bool any = false;
	for (int i = 0; i < in.n && !any; i++)
		any = find_def(m, &in.v[i]) != NULL;
	if (any) {
		in.n = 0;
		expr_tokens(m, c, true, &in);
	}
	Walk w = {m, NULL, 0, 0, {0}};
	if (any && expand(m, in.v, in.n, NULL, NULL, 0, &out)) {
		w.t = out.v;
		w.n = out.n;
		if (walk(&w, c) && w.pos == w.n)
			for (int i = 0; i < w.got.n; i++)
				vec_push(m->ops, w.got.v[i]);
	}
	vec_free(w.got);
	vec_free(in);
	vec_free(out);
}

/* ---- loop macros: `#define FOR(i, n) for (int i = 0; i < (n); ++i)` ---- */

/* The tokens of the macro invocation `NAME ( ... )` at toks[0..n), expanded onto *out;
 * false if toks does not start with one or fusecc cannot expand it. */
static bool expand_invocation(MacroOps *m, const CXToken *toks, unsigned n, TokVec *out)
{
	TokVec in = {0};
	int level = 0;
	for (unsigned i = 0; i < n; i++) {
		MTok t = {tok_text(m, toks[i]), clang_getTokenKind(toks[i]), clang_getTokenLocation(m->tu, toks[i])};
		if (t.kind == CXToken_Comment)
			continue;
		vec_push(in, t);
		level += !strcmp(t.text, "(") - !strcmp(t.text, ")");
		if (in.n > 1 && level == 0)
			break;
	}
	bool ok = in.n >= 3 && !strcmp(in.v[1].text, "(") && level == 0 && find_def(m, &in.v[0]) && expand(m, in.v, in.n, NULL, NULL, 0, out);
	vec_free(in);
	return ok;
}

/* The end of the balanced run of t[from..n) that closes with `)` at level 0, or -1. */
static int close_paren(const MTok *t, int from, int n)
{
	for (int i = from, level = 0; i < n; i++) {
		level += !strcmp(t[i].text, "(") - !strcmp(t[i].text, ")");
		if (level < 0)
			return i;
	}
	return -1;
}

bool macro_expands_to_for(MacroOps *m, const CXToken *toks, unsigned n)
{
	TokVec out = {0};
	bool ok = expand_invocation(m, toks, n, &out) && out.n >= 2 && !strcmp(out.v[0].text, "for") && !strcmp(out.v[1].text, "(");
	vec_free(out);
	return ok;
}

/* Walks expression c along t[0..n) exactly, recording its operators on success. */
static void walk_part(MacroOps *m, CXCursor c, const MTok *t, int n)
{
	Walk w = {m, t, n, 0, {0}};
	if (walk(&w, c) && w.pos == w.n)
		for (int i = 0; i < w.got.n; i++)
			vec_push(m->ops, w.got.v[i]);
	vec_free(w.got);
}

/* A header part `int v = e` (declaration child c): e along the tokens after the `=`. */
static void walk_decl_part(MacroOps *m, CXCursor c, const MTok *t, int n)
{
	CursorVec vars = {0}, ch = {0};
	clang_visitChildren(c, collect_child, &vars);
	if (vars.n == 1)
		clang_visitChildren(vars.v[0], collect_child, &ch);
	int eq = 0;
	while (eq < n && strcmp(t[eq].text, "="))
		eq++;
	if (ch.n && clang_isExpression(clang_getCursorKind(ch.v[ch.n - 1])) && eq < n)
		walk_part(m, ch.v[ch.n - 1], t + eq + 1, n - eq - 1);
	vec_free(vars);
	vec_free(ch);
}

/* The operators of for statement c's header when a macro spells it (`FOR(c, C) body`):
 * the invocation expanded, the header split at its two `;`, and each part libclang gives
 * (it omits the missing ones) walked along its tokens. */
static void scan_loop_header(MacroOps *m, CXCursor c)
{
	CXFile f;
	unsigned start;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &start);
	CXToken *toks;
	unsigned n;
	clang_tokenize(m->tu, clang_getRange(clang_getLocationForOffset(m->tu, f, start), m->body_end), &toks, &n);
	TokVec out = {0};
	CursorVec ch = {0};
	clang_visitChildren(c, collect_child, &ch);
	int close = -1;
	if (expand_invocation(m, toks, n, &out) && out.n >= 2 && !strcmp(out.v[0].text, "for") && !strcmp(out.v[1].text, "("))
		close = close_paren(out.v, 2, out.n);
	/* the parts [from, to) between the header's parentheses, split at level-0 `;` */
	int from[3], to[3], np = 0, nonempty = 0;
	for (int i = 2, level = 0, at = 2; close >= 0 && i <= close && np < 3; i++) {
		const char *t = out.v[i].text;
		if (i == close || (level == 0 && !strcmp(t, ";"))) {
			from[np] = at, to[np] = i, nonempty += i > at, np++;
			at = i + 1;
		}
		level += !strcmp(t, "(") - !strcmp(t, ")");
	}
	if (np == 3 && nonempty + 1 == ch.n)
		for (int p = 0, k = 0; p < 3; p++) {
			if (to[p] == from[p])
				continue;
			CXCursor part = ch.v[k++];
			if (clang_getCursorKind(part) == CXCursor_DeclStmt)
				walk_decl_part(m, part, out.v + from[p], to[p] - from[p]);
			else
				walk_part(m, part, out.v + from[p], to[p] - from[p]);
		}
	vec_free(ch);
	vec_free(out);
	clang_disposeTokens(m->tu, toks, n);
}

/* Whether statement c starts with a macro's name rather than its keyword. libclang 16
 * locates a macro body's tokens at the invocation, so the first token tells. */
static bool spelled_by_macro(MacroOps *m, CXCursor c)
{
	CXSourceLocation l = clang_getRangeStart(clang_getCursorExtent(c));
	CXFile f;
	unsigned off;
	clang_getExpansionLocation(l, &f, NULL, NULL, &off);
	CXToken *toks;
	unsigned n;
	clang_tokenize(m->tu, clang_getRange(clang_getLocationForOffset(m->tu, f, off), clang_getLocationForOffset(m->tu, f, off + 1)), &toks, &n);
	bool r = n >= 1 && clang_getTokenKind(toks[0]) == CXToken_Identifier;
	clang_disposeTokens(m->tu, toks, n);
	return r;
}

static enum CXChildVisitResult scan_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	if (clang_getCursorKind(c) == CXCursor_ForStmt && spelled_by_macro(d, c))
		scan_loop_header(d, c);
	if (clang_isExpression(clang_getCursorKind(c)) && !clang_isExpression(clang_getCursorKind(parent))) {
		scan_expr(d, c);
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

void macro_ops_scan(MacroOps *m, CXCursor body)
{
	m->body_end = clang_getRangeEnd(clang_getCursorExtent(body));
	clang_visitChildren(body, scan_visit, m);
}

/* Whether cursors a and b stand for the same expression. clang_equalCursors also
 * compares the declaration a visit started from (data[0]), which differs between the
 * scan's walk and the front end's; data[1] is the expression itself. */
static bool same_expr(CXCursor a, CXCursor b) { return a.kind == b.kind && a.data[1] == b.data[1] && a.data[2] == b.data[2]; }

bool macro_ops_lookup(const MacroOps *m, CXCursor c, const char **op, CXSourceLocation *loc)
{
	for (int i = m ? m->ops.n - 1 : -1; i >= 0; i--)
		if (same_expr(m->ops.v[i].c, c)) {
			*op = m->ops.v[i].op;
			*loc = m->ops.v[i].loc;
			return true;
		}
	return false;
}
