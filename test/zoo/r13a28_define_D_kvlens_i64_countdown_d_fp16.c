/* #define D, decode with kv lengths in int64, the head-dim loops counting down (a habit from
 * reverse-unrolled SIMD code), no strategy clause. */
#include <math.h>
#include <stdint.h>

#define D 64

void dec_cd(int B, int H, int L, const int64_t kv_len[B], const _Float16 q[B][H][D],
	    const _Float16 k[B][H][L][D], const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(dec_cd) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float mx = -INFINITY;
			for (int64_t j = 0; j < kv_len[b]; j++) {
				float s = 0.0f;
				for (int d = D - 1; d >= 0; d--) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				mx = fmaxf(mx, s * 0.125f);
			}
			float l = 0.0f;
			for (int64_t j = 0; j < kv_len[b]; j++) {
				float s = 0.0f;
				for (int d = D - 1; d >= 0; d--) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				l += expf(s * 0.125f - mx);
			}
			for (int d = D - 1; d >= 0; d--) {
				float a = 0.0f;
				for (int64_t j = 0; j < kv_len[b]; j++) {
					float s = 0.0f;
					for (int e = 0; e < D; e++) s += (float)q[b][h][e] * (float)k[b][h][j][e];
					a += expf(s * 0.125f - mx) * (float)v[b][h][j][d];
				}
				o[b][h][d] = (_Float16)(a / l);
			}
		}
}
