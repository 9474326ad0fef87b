/* llama.cpp's non-flash path ported by hand: K cache [B][H][T][D], V cache stored transposed
 * [B][H][D][T] (ggml keeps v^T so that kqv is a mul_mat over contiguous rows), kq -> soft_max -> kqv. */
#include <math.h>

void ggml_attn_decode(int B, int H, int T, const _Float16 q[B][H][128], const _Float16 k[B][H][T][128],
		      const _Float16 vT[B][H][128][T], float kqv[B][H][128])
{
	const float kq_scale = 0.08838834764831845f;
#pragma fuse kernel(ggml_attn_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float kq[T];
			for (int t = 0; t < T; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)k[b][h][t][d] * (float)q[b][h][d];
				kq[t] = s * kq_scale;
			}
			float max = -INFINITY;
			for (int t = 0; t < T; t++) max = kq[t] > max ? kq[t] : max;
			float sum = 0.0f;
			for (int t = 0; t < T; t++) {
				const float e = expf(kq[t] - max);
				kq[t] = e;
				sum += e;
			}
			const float inv = 1.0f / sum;
			for (int t = 0; t < T; t++) kq[t] *= inv;
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int t = 0; t < T; t++) acc += (float)vT[b][h][d][t] * kq[t];
				kqv[b][h][d] = acc;
			}
		}
}
