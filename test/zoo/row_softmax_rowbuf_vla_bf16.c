/* row_softmax_rowbuf_vla_bf16.c: softmax over bf16 rows of run-time width, bf16 output,
 * written with a scratch row: `float buf[N]` (a variable-length array), filled with the
 * shifted logits x - max in the loop after the max, exponentiated in place in a loop of
 * its own, summed in another, then scaled by the reciprocal into the output. Tab indents,
 * loop names i / j, parallel(i) and no strategy clause. The buffer lives in shared memory
 * when the row fits there (decided at launch), else in a workspace. */
#include <math.h>
#include "fusecc.h"

void softmax_rowbuf(int M, int N, const fusecc_bf16 x[M][N], fusecc_bf16 out[M][N])
{
#pragma fuse kernel(softmax_rowbuf) parallel(i)
	for (int i = 0; i < M; i++) {
		float buf[N];
		float mx = -INFINITY;
		for (int j = 0; j < N; j++)
			mx = fmaxf(mx, fusecc_bf16_to_float(x[i][j]));
		for (int j = 0; j < N; j++)
			buf[j] = fusecc_bf16_to_float(x[i][j]) - mx;
		for (int j = 0; j < N; j++)
			buf[j] = expf(buf[j]);
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += buf[j];
		const float inv = 1.0f / s;
		for (int j = 0; j < N; j++)
			out[i][j] = fusecc_float_to_bf16(buf[j] * inv);
	}
}
