/* util.h: the small things every stage uses: arena, growable arrays, string builder,
 * diagnostics with a source location. Nothing here knows about C or GPUs. */
#ifndef FUSECC_UTIL_H
#define FUSECC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Exit codes of the driver; tests and Makefiles rely on them. */
enum {
	EXIT_OK = 0,
	EXIT_INPUT = 1,    /* errors in the user's input */
	EXIT_USAGE = 2,    /* bad command line */
	EXIT_INTERNAL = 70 /* a fusecc bug (EX_SOFTWARE) */
};

/* ---- arena: every IR node lives in one; freed all at once ---- */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
	ArenaBlock *head;
} Arena;

void *arena_alloc(Arena *a, size_t n);          /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_free(Arena *a);
#define NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))

/* ---- growable arrays: struct { T *v; int n, cap; } declared with VEC(T) ---- */
#define VEC(T) struct { T *v; int n, cap; }
void vec_grow_(void **v, int *cap, int need, size_t elem);
#define vec_push(vec, x)                                                                   \
	do {                                                                                   \
		if ((vec).n >= (vec).cap)                                                          \
			vec_grow_((void **)&(vec).v, &(vec).cap, (vec).n + 1, sizeof(*(vec).v));      \
		(vec).v[(vec).n++] = (x);                                                          \
	} while (0)
typedef VEC(const char *) StrVec;
#define vec_free(vec) (free((vec).v), (vec).v = NULL, (vec).n = (vec).cap = 0)

/* ---- string builder (heap; the caller frees sb.s or steals it) ---- */
typedef struct StrBuf {
	char *s;
	size_t len, cap;
} StrBuf;
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
void sb_indent(StrBuf *b, int level); /* one tab per level */
void sb_free(StrBuf *b);

/* ---- diagnostics ---- */
/* A position in a source file; line and col are 1-based, col counts bytes. line 0: no location. */
typedef struct Loc {
	const char *file;
	int line, col;
} Loc;

/* Where diagnostics go (stderr by default; unit tests redirect it). */
extern FILE *diag_stream;
/* Registers the text of a file so diagnostics can quote its lines. The text is not copied. */
void diag_set_source(const char *file, const char *text, size_t len);
/* Unregisters the source registered under this very `file` pointer (before the memory
 * holding it is freed); a later registration of the same name is kept. */
void diag_forget_source(const char *file);
/* `file:line:col: error: msg`, then the source line and a caret. Counts the error. */
void error_at(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void verror_at(Loc loc, const char *fmt, va_list ap); /* error_at for a wrapper of its own */
void warning_at(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void note_at(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* `fusecc: error: msg` for errors with no place in the input. */
void error_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A fusecc bug found at a place in the input (a derived repair failing its check, say):
 * reported like an error, and the driver exits with EXIT_INTERNAL. */
void internal_error_at(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int internal_error_count(void);
int error_count(void);
int warning_count(void);
void diag_reset(void);
/* The counts so far, and a return to them: a stage tried and given up on (the driver's
 * twin kernels) leaves no error behind. */
typedef struct DiagMark {
	int errors, warnings, internal;
} DiagMark;
DiagMark diag_mark(void);
void diag_rewind(DiagMark m);

/* Closest candidate to `word` within a small edit distance, or NULL ("did you mean"). */
const char *closest_word(const char *word, const char *const *cands, int n);

/* Reads a whole file; NULL with errno set on failure. *len excludes the added NUL. */
char *read_file(const char *path, size_t *len);

#endif
