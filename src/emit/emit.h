/* emit.h: the printers. Each writes a whole output file into a string builder. */
#ifndef FUSECC_EMIT_H
#define FUSECC_EMIT_H

#include "../fuse/fuse.h"
#include "../ir/ir.h"

/* The fused C program: for every function with regions, `void <fn>_fused(<same params>)`.
 * `input_name` appears in the header comment (a base name, so output does not depend on
 * the directory fusecc ran in). line_directives: `#line` before the statements that come
 * from the input (--line). */
void emit_c(StrBuf *out, const Program *p, const char *input_name, bool line_directives);

typedef enum GpuKind { GPU_CUDA, GPU_HIP } GpuKind;

typedef struct GpuOptions {
	bool line_directives; /* --line */
	bool warn_fallback;   /* a warning for each kernel printed by the one-thread-per-row fallback */
} GpuOptions;

/* CUDA or HIP: the kernels of every region and, per function, `<fn>_launch`. false after
 * a located error for a region the GPU lowering cannot print. */
bool emit_gpu(StrBuf *out, const Program *p, const char *input_name, GpuKind kind, const GpuOptions *o);
/* The pieces of emit_gpu, for a file whose functions are specialised (fuse_spec_plan):
 * the banner and includes; one function's kernels and launcher, which with a suffix is
 * the static <fn>_launch<suffix> of one combination of values (the caller has named the
 * kernels with it); and the `extern "C"` <fn>_launch that picks one by the run-time
 * values and refuses the others with a message on stderr. */
void emit_gpu_begin(StrBuf *out, const char *input_name, GpuKind kind, const GpuOptions *o, bool stdio);
/* f's kernels and launcher; suffix names a combination's (static) launcher, NULL the
 * extern "C" one; twin, if not NULL, is the launcher of f's split-k twin, which the
 * launcher of f's one rolling tile region calls for grids smaller than the GPU. */
bool emit_gpu_function(StrBuf *out, const Program *p, const Func *f, GpuKind kind, const char *suffix, const char *twin);
/* Whether region r (fused) gets split-k tensor-core tiles: a twin worth emitting. */
bool emit_gpu_splitk_tiles(const Program *p, const Region *r, GpuKind kind);
const char *spec_suffix(Arena *a, const SpecPlan *sp, int c);
/* f's extern launcher when it has struct parameters: it takes them as the C function does
 * and calls <f>_launch_fields with their fields (the structs' definitions printed once). */
void emit_gpu_struct_launcher(StrBuf *out, const Func *f, GpuKind kind);
void emit_gpu_dispatch(StrBuf *out, Arena *a, const Func *f, GpuKind kind, const SpecPlan *sp);

/* The PyTorch extension (--emit=torch): per function, the operator torch.ops.fusecc.<fn>
 * (TORCH_LIBRARY_FRAGMENT, CUDA and Meta kernels) over <fn>_launch of the CUDA file for the
 * same input. false after a located error (an element type PyTorch lacks, no output). */
bool emit_torch(StrBuf *out, const Program *p, const char *input_name);

/* Opens a comment with the schedule after the indent and, for a fused region, a line saying how it was fused; the
 * caller closes the comment. The effective schedule every output echoes. */
void emit_schedule_echo(StrBuf *out, const Region *r, const char *indent);

/* The first lines of every generated file: what made it and from what. */
/* The definitions of p's struct parameters' types (each once), their scalar types t's. */
void emit_struct_defs(StrBuf *out, const Program *p, const PrintTarget *t);
/* `const int cfg_n = cfg.n;` for each field f reads of a struct parameter, types t's. */
void emit_struct_fields(StrBuf *out, const Func *f, const PrintTarget *t);
void emit_banner(StrBuf *out, const char *comment_open, const char *input_name);

#endif
