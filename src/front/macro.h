/* macro.h: the operators of expressions written through macros (`#define MAX(a, b)
 * ((a) > (b) ? (a) : (b))`). libclang 16 neither names a binary operator nor gives the
 * spelling location of a token in a macro's body, so the front end expands the macros of
 * each expression that uses one itself and reads the operators off the expanded tokens,
 * walking them along libclang's tree of the expression. */
#ifndef FUSECC_FRONT_MACRO_H
#define FUSECC_FRONT_MACRO_H

#include <clang-c/Index.h>
#include <stdbool.h>

typedef struct MacroOps MacroOps;

/* The table of the translation unit's macro definitions; free with macro_ops_free. */
MacroOps *macro_ops_new(CXTranslationUnit tu);
/* Reads the operators of every expression in `body` (a function's) that uses a macro,
 * and of the headers of loops that a macro spells (`FOR(i, n)`).
 * An expression whose expansion fusecc cannot follow (`#`, `##`, variadic macros, a name
 * defined twice) gets none: its operators are refused where they are converted. */
void macro_ops_scan(MacroOps *m, CXCursor body);
/* The operator of binary, compound-assignment or unary cursor c as the expanded tokens
 * spell it ("+", ">", "+=", "-") and the location of its token (of the outermost macro
 * invocation, for a token of a macro's body); false if no scanned expression holds c. */
bool macro_ops_lookup(const MacroOps *m, CXCursor c, const char **op, CXSourceLocation *loc);
/* Whether toks[0..n) starts with the invocation of a macro that expands to a for
 * statement (`FOR(i, n) body`, FOR a loop macro). */
bool macro_expands_to_for(MacroOps *m, const CXToken *toks, unsigned n);
void macro_ops_free(MacroOps *m);

#endif
