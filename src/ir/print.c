/* print.c: the IR printed as C. Used by the fused-C printer, by --emit=ir and by
 * diagnostics; deterministic and with only the parentheses C needs. */
#include "ir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *binop_c(BinOp op)
{
	static const char *const s[] = {
		[OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%",
		[OP_SHL] = "<<", [OP_SHR] = ">>", [OP_BAND] = "&", [OP_BOR] = "|", [OP_BXOR] = "^",
		[OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">=", [OP_EQ] = "==",
		[OP_NE] = "!=", [OP_LAND] = "&&", [OP_LOR] = "||",
	};
	return s[op];
}

const char *assignop_c(AssignOp op)
{
	static const char *const s[] = {
		[AS_SET] = "=", [AS_ADD] = "+=", [AS_SUB] = "-=", [AS_MUL] = "*=", [AS_DIV] = "/=",
	};
	return s[op];
}

static int binop_prec(BinOp op)
{
	switch (op) {
	case OP_MUL: case OP_DIV: case OP_MOD: return 13;
	case OP_ADD: case OP_SUB: return 12;
	case OP_SHL: case OP_SHR: return 11;
	case OP_BAND: return 8;
	case OP_BXOR: return 7;
	case OP_BOR: return 6;
	case OP_LT: case OP_LE: case OP_GT: case OP_GE: return 10;
	case OP_EQ: case OP_NE: return 9;
	case OP_LAND: return 5;
	case OP_LOR: return 4;
	}
	return 0;
}

enum { PREC_COND = 3, PREC_UNARY = 14, PREC_PRIMARY = 16 };

static bool is_negative_literal(const Expr *e)
{
	return (e->kind == EX_INT && e->ival < 0) || (e->kind == EX_FLT && signbit(e->fval) && !isnan(e->fval));
}

static int expr_prec(const Expr *e)
{
	switch (e->kind) {
	case EX_INT:
	case EX_FLT: return is_negative_literal(e) ? PREC_UNARY : PREC_PRIMARY;
	case EX_UN:
	case EX_CAST: return scalar_is_storage(e->ty) || scalar_is_storage(e->args[0]->ty) ? PREC_PRIMARY : PREC_UNARY;
	case EX_BIN: return binop_prec(e->bop);
	case EX_COND: return PREC_COND;
	default: return PREC_PRIMARY;
	}
}

void print_float(StrBuf *b, double v, ScalarType ty)
{
	bool single = ty != TY_DOUBLE;
	if (isinf(v)) {
		sb_puts(b, v < 0 ? "-" : "");
		sb_puts(b, single ? "INFINITY" : "HUGE_VAL");
		return;
	}
	if (isnan(v)) {
		sb_puts(b, single ? "NAN" : "(double)NAN");
		return;
	}
	char buf[64];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (single ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v)
			break;
	}
	sb_puts(b, buf);
	if (!strpbrk(buf, ".eEn"))
		sb_puts(b, ".0");
	if (single)
		sb_putc(b, 'f');
}

static const char *type_name(ScalarType ty, const PrintTarget *t)
{
	return t && t->type_name ? t->type_name(ty) : scalar_type_c(ty);
}

static void print_sub(StrBuf *b, const Expr *e, int min_prec, const PrintTarget *t)
{
	bool paren = expr_prec(e) < min_prec;
	if (paren)
		sb_putc(b, '(');
	print_expr_to(b, e, t);
	if (paren)
		sb_putc(b, ')');
}

void print_operand_to(StrBuf *b, const Expr *e, BinOp op, const PrintTarget *t) { print_sub(b, e, binop_prec(op) + 1, t); }

void print_left_operand_to(StrBuf *b, const Expr *e, BinOp op, const PrintTarget *t) { print_sub(b, e, binop_prec(op), t); }

/* expf(a - b): printed as fx::exp_sub(a, b) under PrintTarget.exp_sub. */
static bool exp_sub_call(const Expr *e)
{
	return e->kind == EX_CALL && e->fn == FN_EXP && e->ty == TY_FLOAT && e->args[0]->kind == EX_BIN && e->args[0]->bop == OP_SUB;
}

/* (float)f((double)x, ...) with every argument a float widened: f's float form of x. */
static bool print_narrowed_call(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	const Expr *c = e->args[0];
	if (!t || !t->exp_sub || e->ty != TY_FLOAT || c->kind != EX_CALL || c->ty != TY_DOUBLE || c->nargs > 3)
		return false;
	Expr *args[3];
	for (int i = 0; i < c->nargs; i++) {
		const Expr *w = c->args[i];
		if (w->kind != EX_CAST || w->ty != TY_DOUBLE || w->args[0]->ty != TY_FLOAT)
			return false;
		args[i] = w->args[0];
	}
	Expr f = *c;
	f.ty = TY_FLOAT;
	f.args = args;
	print_expr_to(b, &f, t);
	return true;
}

static void print_cast(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	const Expr *a = e->args[0];
	if (print_narrowed_call(b, e, t))
		return;
	if (scalar_is_storage(a->ty)) {
		/* bf16 or fp8 -> float via the header's function; a further cast if the target is not float. */
		if (e->ty != TY_FLOAT)
			sb_printf(b, "(%s)", type_name(e->ty, t));
		sb_puts(b, a->ty == TY_BF16 ? "fusecc_bf16_to_float(" : "fusecc_fp8e4m3_to_float(");
		print_expr_to(b, a, t);
		sb_putc(b, ')');
	} else if (scalar_is_storage(e->ty)) {
		sb_puts(b, e->ty == TY_BF16 ? "fusecc_float_to_bf16(" : "fusecc_float_to_fp8e4m3(");
		print_expr_to(b, a, t);
		sb_putc(b, ')');
	} else {
		sb_printf(b, "(%s)", type_name(e->ty, t));
		print_sub(b, a, PREC_UNARY, t);
	}
}

/* Subscript i of e at precedence prec; in a GPU kernel, one read from an index array goes
 * through FUSECC_INDEX (include/fusecc.h: checked under -DFUSECC_CHECK_INDEX). */
static void print_subscript(StrBuf *b, const Expr *e, int i, int prec, const PrintTarget *t)
{
	if (!(t && t->flatten_params && expr_reads_element(e->args[i]))) {
		print_sub(b, e->args[i], prec, t);
		return;
	}
	sb_puts(b, "FUSECC_INDEX(");
	print_expr_to(b, e->args[i], t);
	sb_puts(b, ", ");
	if (e->var->dims[i])
		print_expr_to(b, e->var->dims[i], t);
	else
		sb_puts(b, "-1");
	sb_printf(b, ", \"%s\", %d)", e->var->name, i);
}

/* An element of a parameter array as a pointer access: q[((b * H + h) * N + i) * 128 + d],
 * in 64-bit arithmetic (the element count may pass 2^31). */
static void print_flat_index(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	sb_printf(b, "%s[", e->var->name);
	if (e->var->strides) { /* q[(long long)b * sqb + (long long)i * sqm + d] */
		for (int i = 0; i < e->nargs; i++) {
			const Expr *st = e->var->strides[i];
			if (i)
				sb_puts(b, " + ");
			if (st->kind == EX_INT && st->ival == 1) {
				print_subscript(b, e, i, 13, t);
				continue;
			}
			sb_puts(b, "(long long)");
			print_subscript(b, e, i, PREC_UNARY, t);
			sb_puts(b, " * ");
			print_sub(b, st, 14, t);
		}
		sb_putc(b, ']');
		return;
	}
	for (int i = 0; i < e->nargs - 1; i++)
		sb_putc(b, '(');
	for (int i = 0; i < e->nargs; i++) {
		if (i == 0) {
			sb_puts(b, "(long long)");
			print_subscript(b, e, 0, PREC_UNARY, t);
			continue;
		}
		sb_puts(b, " * ");
		print_sub(b, e->var->dims[i], 14, t);
		sb_puts(b, " + ");
		print_subscript(b, e, i, 13, t);
		sb_putc(b, ')');
	}
	sb_putc(b, ']');
}

void print_expr(StrBuf *b, const Expr *e) { print_expr_to(b, e, NULL); }

void print_expr_to(StrBuf *b, const Expr *e, const PrintTarget *t)
{
	if (t && t->expr_hook && t->expr_hook(b, e, t))
		return;
	switch (e->kind) {
	case EX_INT:
		sb_printf(b, "%lld", e->ival);
		break;
	case EX_FLT:
		print_float(b, e->fval, e->ty);
		break;
	case EX_VAR:
		if (t && t->var_hook && t->var_hook(b, e, t))
			break;
		sb_puts(b, e->var->name);
		break;
	case EX_INDEX:
		if (t && t->var_hook && t->var_hook(b, e, t))
			break;
		if ((t && t->flatten_params && e->var->kind == VAR_PARAM) || e->var->flat) {
			print_flat_index(b, e, t);
			break;
		}
		sb_puts(b, e->var->name);
		for (int i = 0; i < e->nargs; i++) {
			sb_putc(b, '[');
			print_expr_to(b, e->args[i], t);
			sb_putc(b, ']');
		}
		break;
	case EX_UN: {
		const Expr *a = e->args[0];
		sb_puts(b, e->uop == UOP_NEG ? "-" : "!");
		/* `- -x` must not become `--x`. */
		bool paren = expr_prec(a) < PREC_UNARY || (e->uop == UOP_NEG && (is_negative_literal(a) || (a->kind == EX_UN && a->uop == UOP_NEG)));
		if (paren)
			sb_putc(b, '(');
		print_expr_to(b, a, t);
		if (paren)
			sb_putc(b, ')');
		break;
	}
	case EX_BIN: {
		int p = binop_prec(e->bop);
		const Expr *d = e->args[1];
		if (t && t->recip_div && e->bop == OP_DIV && e->ty == TY_FLOAT && d->ty == TY_FLOAT) {
			print_sub(b, e->args[0], p, t);
			sb_puts(b, " * ");
			if (d->kind == EX_FLT && d->fval != 0 && isfinite(1.0 / d->fval)) {
				print_float(b, (float)(1.0 / d->fval), TY_FLOAT);
			} else {
				sb_puts(b, "__frcp_rn(");
				print_expr_to(b, d, t);
				sb_putc(b, ')');
			}
			break;
		}
		print_sub(b, e->args[0], p, t);
		sb_printf(b, " %s ", binop_c(e->bop));
		print_sub(b, e->args[1], p + 1, t);
		break;
	}
	case EX_CALL:
		if (t && t->exp_sub && exp_sub_call(e)) {
			sb_puts(b, t->exp_sub_moderate ? "fx::exp_sub<true>(" : "fx::exp_sub(");
			print_expr_to(b, e->args[0]->args[0], t);
			sb_puts(b, ", ");
			print_expr_to(b, e->args[0]->args[1], t);
			sb_putc(b, ')');
			break;
		}
		if (t && t->fn_name && t->fn_name(e->fn, e->ty))
			sb_puts(b, t->fn_name(e->fn, e->ty));
		else
			sb_puts(b, e->ty == TY_DOUBLE ? mathfn_info[e->fn].f64 : mathfn_info[e->fn].f32);
		sb_putc(b, '(');
		for (int i = 0; i < e->nargs; i++) {
			if (i)
				sb_puts(b, ", ");
			/* C converts an integer argument (sqrt(D), D a specialised head dim
			 * printed as 64) to the call's type; CUDA would pick std::sqrt<int>,
			 * a host-only constexpr template; so would a float element in a
			 * double call, fmax(m, m_part[ch]) with the fp32 split-k partials
			 * (a workspace the GPU printers declare float whatever the IR's type). */
			if (t && t->fn_name && !mathfn_classifies(e->fn) &&
			    (!scalar_is_float(e->args[i]->ty) || (e->ty == TY_DOUBLE && (e->args[i]->ty != TY_DOUBLE || e->args[i]->kind == EX_INDEX)))) {
				sb_printf(b, "(%s)", e->ty == TY_DOUBLE ? "double" : "float");
				print_sub(b, e->args[i], PREC_UNARY, t);
				continue;
			}
			print_expr_to(b, e->args[i], t);
		}
		sb_putc(b, ')');
		break;
	case EX_COND:
		print_sub(b, e->args[0], PREC_COND + 1, t);
		sb_puts(b, " ? ");
		print_sub(b, e->args[1], PREC_COND + 1, t);
		sb_puts(b, " : ");
		print_sub(b, e->args[2], PREC_COND, t);
		break;
	case EX_CAST:
		print_cast(b, e, t);
		break;
	}
}

void print_decl(StrBuf *b, const Var *v) { print_decl_to(b, v, NULL); }

void print_decl_to(StrBuf *b, const Var *v, const PrintTarget *t)
{
	if (v->is_const)
		sb_puts(b, "const ");
	/* C keeps the user's spelling (a `long` array stays one); a GPU target has its own names. */
	sb_printf(b, "%s %s%s", v->ctype && !(t && t->type_name) ? v->ctype : type_name(v->ty, t), v->flat && !v->flat_extent ? "*" : "", v->name);
	if (v->flat && v->flat_extent) {
		sb_putc(b, '[');
		print_expr_to(b, v->flat_extent, t);
		sb_putc(b, ']');
	}
	for (int i = 0; i < v->ndim && !v->flat; i++) {
		sb_putc(b, '[');
		if (v->dims[i]) /* a parameter `q[][D]` */
			print_expr_to(b, v->dims[i], t);
		sb_putc(b, ']');
	}
}

static void print_body(StrBuf *b, const Stmt *s, int indent, const PrintTarget *t)
{
	if (s->kind == ST_BLOCK) {
		sb_putc(b, ' ');
		print_stmt_to(b, s, indent, t);
	} else {
		sb_putc(b, '\n');
		sb_indent(b, indent + 1);
		print_stmt_to(b, s, indent + 1, t);
	}
}

void print_stmt(StrBuf *b, const Stmt *s, int indent) { print_stmt_to(b, s, indent, NULL); }

/* The file name as a C string literal's contents. */
static void put_escaped(StrBuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_putc(b, '\\');
		sb_putc(b, *s);
	}
}

void print_stmt_to(StrBuf *b, const Stmt *s, int indent, const PrintTarget *t)
{
	if (t && t->line_last && s->kind != ST_BLOCK && s->loc.file && s->loc.line > 0 && s->loc.line != *t->line_last) {
		/* The caller indented; a directive may follow blanks, the statement is re-indented. */
		*t->line_last = s->loc.line;
		sb_printf(b, "#line %d \"", s->loc.line);
		put_escaped(b, s->loc.file);
		sb_puts(b, "\"\n");
		sb_indent(b, indent);
	}
	switch (s->kind) {
	case ST_BLOCK:
		/* A block is printed where its owner put the opening brace: no indent first. */
		sb_puts(b, "{\n");
		for (int i = 0; i < s->nbody; i++) {
			sb_indent(b, indent + 1);
			print_stmt_to(b, s->body[i], indent + 1, t);
		}
		sb_indent(b, indent);
		sb_puts(b, "}\n");
		break;
	case ST_FOR:
		sb_printf(b, "for (int %s = ", s->var->name);
		print_expr_to(b, s->lo, t);
		sb_printf(b, "; %s < ", s->var->name);
		print_sub(b, s->hi, binop_prec(OP_LT) + 1, t);
		if (s->step > 1)
			sb_printf(b, "; %s += %ld)", s->var->name, s->step);
		else
			sb_printf(b, "; %s++)", s->var->name);
		print_body(b, s->body[0], indent, t);
		break;
	case ST_ASSIGN:
		print_expr_to(b, s->lhs, t);
		sb_printf(b, " %s ", assignop_c(s->aop));
		print_expr_to(b, s->rhs, t);
		sb_puts(b, ";\n");
		break;
	case ST_DECL:
		print_decl_to(b, s->var, t);
		if (s->rhs) {
			sb_puts(b, " = ");
			print_expr_to(b, s->rhs, t);
		}
		sb_puts(b, ";\n");
		break;
	case ST_IF:
		sb_puts(b, "if (");
		print_expr_to(b, s->cond, t);
		sb_putc(b, ')');
		print_body(b, s->body[0], indent, t);
		if (s->nbody > 1 && s->body[1]) {
			sb_indent(b, indent);
			sb_puts(b, "else");
			print_body(b, s->body[1], indent, t);
		}
		break;
	}
}

void print_field_ref(StrBuf *b, const Var *v) { sb_printf(b, "%s%s%s", v->field_of->name, v->field_of->by_pointer ? "->" : ".", v->field); }

void print_struct_param(StrBuf *b, const StructParam *s)
{
	sb_printf(b, s->by_pointer ? "const %s *%s" : "%s %s", s->type, s->name);
}

void print_struct_def(StrBuf *b, const StructParam *s, const PrintTarget *t)
{
	sb_puts(b, s->typedef_name ? "typedef struct " : "struct ");
	if (s->tag)
		sb_printf(b, "%s ", s->tag);
	sb_puts(b, "{\n");
	for (int i = 0; i < s->nfields; i++) {
		const StructField *f = &s->fields[i];
		if (f->opaque) {
			size_t n = strlen(f->opaque);
			sb_printf(b, "\t%s%s%s;\n", f->opaque, f->opaque[n - 1] == '*' ? "" : " ", f->name);
			continue;
		}
		sb_printf(b, "\t%s%s %s%s;\n", f->ptr && f->is_const ? "const " : "", f->ctype && f->ty != TY_BOOL ? f->ctype : type_name(f->ty, t), f->ptr ? "*" : "", f->name);
	}
	sb_puts(b, "}");
	if (s->typedef_name)
		sb_printf(b, " %s", s->type);
	sb_puts(b, ";\n");
}
