/* HPC engineer's log_softmax over a 256K vocab (Gemma's), restrict-qualified flat pointers,
 * size_t offsets, loops counting down, OpenMP on the rows. */
#include <math.h>
#include <stddef.h>
#include "fusecc.h"

void log_softmax_vocab(size_t n_rows, size_t n_vocab, const fusecc_bf16 *restrict logits,
		       float *restrict logp)
{
#pragma fuse kernel(log_softmax_vocab) parallel(r)
#pragma omp parallel for schedule(static)
	for (size_t r = 0; r < n_rows; ++r) {
		const fusecc_bf16 *restrict x = logits + r * n_vocab;
		float *restrict y = logp + r * n_vocab;
		float mx = -INFINITY;
		for (size_t c = n_vocab; c-- > 0;)
			mx = fmaxf(mx, fusecc_bf16_to_float(x[c]));
		float acc = 0.0f;
		for (size_t c = n_vocab; c-- > 0;)
			acc += expf(fusecc_bf16_to_float(x[c]) - mx);
		const float lse = mx + logf(acc);
		for (size_t c = 0; c < n_vocab; ++c)
			y[c] = fusecc_bf16_to_float(x[c]) - lse;
	}
}
