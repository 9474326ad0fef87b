/* CUDA-habit typedefs in a C reference: typedef _Float16 half; typedef int64_t idx_t;
 * sqrtf(head_dim) on an int without a cast; decode over a KV cache with GQA by h / G. */
#include <math.h>
#include <stdint.h>

typedef _Float16 half;
typedef int64_t idx_t;

void decode_typedefs(int B, int H, int G, int L, int head_dim, const half q[B][H][head_dim],
		     const half k[B][H / G][L][head_dim], const half v[B][H / G][L][head_dim], half o[B][H][head_dim])
{
	const float scale = 1.0f / sqrtf(head_dim);
#pragma fuse kernel(decode_typedefs) parallel(b, h) splitk(j)
	for (idx_t b = 0; b < B; b++)
		for (idx_t h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f;
			for (idx_t j = 0; j < L; j++) {
				float s = 0.0f;
				for (idx_t d = 0; d < head_dim; d++) s += (float)q[b][h][d] * (float)k[b][h / G][j][d];
				m = fmaxf(m, s * scale);
			}
			for (idx_t j = 0; j < L; j++) {
				float s = 0.0f;
				for (idx_t d = 0; d < head_dim; d++) s += (float)q[b][h][d] * (float)k[b][h / G][j][d];
				l += expf(s * scale - m);
			}
			for (idx_t d = 0; d < head_dim; d++) {
				float a = 0.0f;
				for (idx_t j = 0; j < L; j++) {
					float s = 0.0f;
					for (idx_t e = 0; e < head_dim; e++) s += (float)q[b][h][e] * (float)k[b][h / G][j][e];
					a += expf(s * scale - m) * (float)v[b][h / G][j][d];
				}
				o[b][h][d] = (half)(a / l);
			}
		}
}
