/* util.c: arena, arrays, string builder, file reading, edit distance. */
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ArenaBlock {
	ArenaBlock *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("fusecc: internal error: out of memory\n", stderr);
		exit(EXIT_INTERNAL);
	}
	return p;
}

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	ArenaBlock *b = a->head;
	if (!b || b->used + n > b->cap) {
		size_t cap = n > 65536 ? n : 65536;
		b = xmalloc(sizeof(ArenaBlock) + cap);
		b->next = a->head;
		b->used = 0;
		b->cap = cap;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void arena_free(Arena *a)
{
	for (ArenaBlock *b = a->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

void vec_grow_(void **v, int *cap, int need, size_t elem)
{
	int c = *cap ? *cap : 4;
	while (c < need)
		c *= 2;
	void *p = realloc(*v, (size_t)c * elem);
	if (!p) {
		fputs("fusecc: internal error: out of memory\n", stderr);
		exit(EXIT_INTERNAL);
	}
	*v = p;
	*cap = c;
}

static void sb_reserve(StrBuf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t c = b->cap ? b->cap : 256;
	while (c < b->len + extra + 1)
		c *= 2;
	char *p = realloc(b->s, c);
	if (!p) {
		fputs("fusecc: internal error: out of memory\n", stderr);
		exit(EXIT_INTERNAL);
	}
	b->s = p;
	b->cap = c;
}

void sb_putc(StrBuf *b, char c)
{
	sb_reserve(b, 1);
	b->s[b->len++] = c;
	b->s[b->len] = 0;
}

void sb_puts(StrBuf *b, const char *s)
{
	size_t n = strlen(s);
	sb_reserve(b, n);
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

void sb_vprintf(StrBuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	sb_reserve(b, (size_t)n);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

void sb_indent(StrBuf *b, int level)
{
	for (int i = 0; i < level; i++)
		sb_putc(b, '\t');
}

void sb_free(StrBuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	StrBuf b = {0};
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		sb_reserve(&b, n);
		memcpy(b.s + b.len, buf, n);
		b.len += n;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		sb_free(&b);
		errno = EIO;
		return NULL;
	}
	sb_reserve(&b, 0);
	b.s[b.len] = 0;
	*len = b.len;
	return b.s;
}

static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	int d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

const char *closest_word(const char *word, const char *const *cands, int n)
{
	const char *best = NULL;
	int bestd = (int)strlen(word) / 3 + 1; /* at most a third of the word wrong */
	if (bestd > 3)
		bestd = 3;
	for (int i = 0; i < n; i++) {
		int d = edit_distance(word, cands[i]);
		if (d <= bestd && (!best || d < edit_distance(word, best)))
			best = cands[i];
	}
	return best;
}
