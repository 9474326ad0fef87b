/* CUDA programmer's C: IDX macro over flat pointers, run-time D. */
#include <math.h>
#define IDX(b, h, i, d) ((((b) * H + (h)) * N + (i)) * D + (d))
void attn_idx(int B, int H, int N, int D, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
	const float sc = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attn_idx) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0;
					for (int d = 0; d < D; d++) s += (float)q[IDX(b, h, i, d)] * (float)k[IDX(b, h, j, d)];
					m = fmaxf(m, s * sc);
				}
				float l = 0;
				for (int j = 0; j <= i; j++) {
					float s = 0;
					for (int d = 0; d < D; d++) s += (float)q[IDX(b, h, i, d)] * (float)k[IDX(b, h, j, d)];
					l += expf(s * sc - m);
				}
				for (int d = 0; d < D; d++) {
					float a = 0;
					for (int j = 0; j <= i; j++) {
						float s = 0;
						for (int e = 0; e < D; e++) s += (float)q[IDX(b, h, i, e)] * (float)k[IDX(b, h, j, e)];
						a += expf(s * sc - m) / l * (float)v[IDX(b, h, j, d)];
					}
					o[IDX(b, h, i, d)] = (_Float16)a;
				}
			}
}
