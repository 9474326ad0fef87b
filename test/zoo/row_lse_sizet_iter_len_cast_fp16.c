/* row_lse_sizet_iter_len_cast_fp16.c: log-sum-exp over the valid prefix of each row of
 * padded fp16 logits, as C++-minded code writes it: size_t iterators compared with the
 * row's int64 length cast to size_t, `(size_t)len[r]`. Style: fp16 logits, fp32 math, max
 * then sum of exp in two loops, an empty row giving -inf, rolling(c). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

void masked_lse(int R, int C, const _Float16 x[R][C], const int64_t len[R], float lse[R])
{
#pragma fuse kernel(masked_lse) parallel(r) rolling(c)
	for (size_t r = 0; r < (size_t)R; r++) {
		float m = -INFINITY;
		for (size_t c = 0; c < (size_t)len[r]; c++)
			m = fmaxf(m, (float)x[r][c]);
		float s = 0.0f;
		for (size_t c = 0; c < (size_t)len[r]; c++)
			s += expf((float)x[r][c] - m);
		lse[r] = m + logf(s);
	}
}
