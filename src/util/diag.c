/* diag.c: the one place that prints diagnostics. Stages report with error_at and
 * return failure to their caller; only the driver decides the exit status. */
#include "util.h"

#include <string.h>

FILE *diag_stream;

typedef struct Source {
	const char *file, *text;
	size_t len;
} Source;

static VEC(Source) sources;
static int nerrors, nwarnings, ninternal;

void diag_set_source(const char *file, const char *text, size_t len)
{
	for (int i = 0; i < sources.n; i++)
		if (!strcmp(sources.v[i].file, file)) {
			sources.v[i].file = file;
			sources.v[i].text = text;
			sources.v[i].len = len;
			return;
		}
	vec_push(sources, ((Source){file, text, len}));
}

void diag_forget_source(const char *file)
{
	for (int i = 0; i < sources.n; i++)
		if (sources.v[i].file == file) {
			sources.v[i] = sources.v[--sources.n];
			return;
		}
}

/* Prints line `line` of `file` and a caret under byte column `col`, if the text is known. */
static void quote_line(FILE *out, const char *file, int line, int col)
{
	for (int i = 0; i < sources.n; i++) {
		if (strcmp(sources.v[i].file, file))
			continue;
		const char *p = sources.v[i].text, *end = p + sources.v[i].len;
		for (int l = 1; l < line && p < end; p++)
			if (*p == '\n')
				l++;
		if (p >= end && line > 1)
			return;
		const char *e = p;
		while (e < end && *e != '\n' && *e != '\r')
			e++;
		/* Built first, written once: stderr is unbuffered, a write per byte is slow. */
		StrBuf b = {0};
		sb_putc(&b, ' ');
		for (const char *q = p; q < e; q++)
			/* Control bytes would garble a terminal: show them as '?'. */
			sb_putc(&b, (unsigned char)*q < 32 && *q != '\t' ? '?' : *q);
		sb_puts(&b, "\n ");
		for (int c = 1; c < col && p + c - 1 < e; c++)
			sb_putc(&b, p[c - 1] == '\t' ? '\t' : ' ');
		sb_puts(&b, "^\n");
		fwrite(b.s, 1, b.len, out);
		sb_free(&b);
		return;
	}
}

static void report(const char *kind, Loc loc, const char *fmt, va_list ap)
{
	FILE *out = diag_stream ? diag_stream : stderr;
	StrBuf b = {0};
	if (loc.file && loc.line > 0)
		sb_printf(&b, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col, kind);
	else if (loc.file)
		sb_printf(&b, "%s: %s: ", loc.file, kind);
	else
		sb_printf(&b, "fusecc: %s: ", kind);
	sb_vprintf(&b, fmt, ap);
	/* A stage that meets one fault from several places (a bound read by three loops)
	 * reports it once: the same text at the same place right after itself is dropped. */
	static StrBuf last;
	static FILE *last_out;
	if (last.s && last_out == out && !strcmp(last.s, b.s)) {
		sb_free(&b);
		return;
	}
	fputs(b.s, out);
	fputc('\n', out);
	sb_free(&last);
	last = b;
	last_out = out;
	if (loc.file && loc.line > 0)
		quote_line(out, loc.file, loc.line, loc.col);
}

void error_at(Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror_at(loc, fmt, ap);
	va_end(ap);
}

void verror_at(Loc loc, const char *fmt, va_list ap)
{
	report("error", loc, fmt, ap);
	nerrors++;
}

void internal_error_at(Loc loc, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	error_at(loc, "internal error: %s (this is a bug in fusecc; please report it with the input)", msg);
	ninternal++;
}

int internal_error_count(void) { return ninternal; }

DiagMark diag_mark(void) { return (DiagMark){nerrors, nwarnings, ninternal}; }

void diag_rewind(DiagMark m)
{
	nerrors = m.errors;
	nwarnings = m.warnings;
	ninternal = m.internal;
}

void warning_at(Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("warning", loc, fmt, ap);
	va_end(ap);
	nwarnings++;
}

void note_at(Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("note", loc, fmt, ap);
	va_end(ap);
}

void error_plain(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("error", (Loc){0}, fmt, ap);
	va_end(ap);
	nerrors++;
}

int error_count(void) { return nerrors; }
int warning_count(void) { return nwarnings; }

/* Counts only: the registered sources stay (they belong to programs still alive). */
void diag_reset(void) { nerrors = nwarnings = ninternal = 0; }
