/* Decode with a run-time group size G and per-sequence kv_len[b], run-time head dim, split-k
 * clause: a serving engineer's reference for a flash-decoding kernel. */
#include <math.h>

void decode_gqa(int B, int H, int G, int D, int L, const int kv_len[B], const _Float16 q[B][H][D],
		const _Float16 k[B][H / G][L][D], const _Float16 v[B][H / G][L][D], _Float16 o[B][H][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(decode_gqa) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / G;
			float mx = -INFINITY;
			for (int j = 0; j < kv_len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[b][h][d] * (float)k[b][kvh][j][d];
				mx = fmaxf(mx, s * scale);
			}
			float den = 0.0f;
			for (int j = 0; j < kv_len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[b][h][d] * (float)k[b][kvh][j][d];
				den += expf(s * scale - mx);
			}
			for (int d = 0; d < D; d++) {
				float a = 0.0f;
				for (int j = 0; j < kv_len[b]; j++) {
					float s = 0.0f;
					for (int e = 0; e < D; e++) s += (float)q[b][h][e] * (float)k[b][kvh][j][e];
					a += expf(s * scale - mx) / den * (float)v[b][kvh][j][d];
				}
				o[b][h][d] = (_Float16)a;
			}
		}
}
