/* pf_llama4_chunk_start_floordiv_rtD_fp16.c: Llama-4 chunked (local) attention as its
 * ports write it: each query sees the keys of its own chunk up to itself, the loop over
 * the keys starting at the chunk's first key `j0 = (i / C) * C` (run-time chunk size C,
 * a local for the start), `j <= i`. Nest b/h/i, run-time head dim D, fp16, one-pass
 * online softmax with an acc[D] VLA. The CTA's key range is [first / C * C, last + 1). */
#include <math.h>

void chunked_nest(int B, int H, int N, int C, int D, float scale,
		  const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		  const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(chunked_nest) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int j0 = (i / C) * C;
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = j0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float m_new = fmaxf(m, s);
					float alpha = expf(m - m_new);
					float p = expf(s - m_new);
					l = l * alpha + p;
					for (int d = 0; d < D; d++)
						acc[d] = acc[d] * alpha + p * (float)v[b][h][j][d];
					m = m_new;
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
