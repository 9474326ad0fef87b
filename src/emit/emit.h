/* emit.h: the printers. Each writes a whole output file into a string builder. */
#ifndef FUSECC_EMIT_H
#define FUSECC_EMIT_H

#include "../ir/ir.h"

/* The fused C program: for every function with regions, `void <fn>_fused(<same params>)`.
 * `input_name` appears in the header comment (a base name, so output does not depend on
 * the directory fusecc ran in). line_directives: `#line` before the statements that come
 * from the input (--line). */
void emit_c(StrBuf *out, const Program *p, const char *input_name, bool line_directives);

typedef enum GpuKind { GPU_CUDA, GPU_HIP } GpuKind;

/* CUDA or HIP: the kernels of every region and, per function, `<fn>_launch`. false after
 * a located error for a region the GPU lowering cannot print. */
bool emit_gpu(StrBuf *out, const Program *p, const char *input_name, GpuKind kind, bool line_directives);

/* Opens a comment with the schedule after the indent and, for a fused region, a line saying how it was fused; the
 * caller closes the comment. The effective schedule every output echoes. */
void emit_schedule_echo(StrBuf *out, const Region *r, const char *indent);

/* The first lines of every generated file: what made it and from what. */
void emit_banner(StrBuf *out, const char *comment_open, const char *input_name);

#endif
