/* Chunked prefill against a KV cache, as a serving engine's CPU reference: the chunk's N queries
 * sit at positions start + i, each query row rotated (NeoX rotate_half, cos/sin tables
 * [max_pos][64]) into a local row before its key loop; the cache (the chunk's own keys
 * included) was rotated when written, so the keys are read as stored. Causal over the cache:
 * query i sees keys 0 .. start + i. fp16, D = 128, online softmax. */
#include <math.h>

void chunked_prefill(int H, int N, int L, int start, int max_pos, const float cos_t[max_pos][64], const float sin_t[max_pos][64],
		     const _Float16 q[H][N][128], const _Float16 k_cache[H][L][128], const _Float16 v_cache[H][L][128],
		     _Float16 out[H][N][128])
{
#pragma fuse kernel(chunked_prefill) parallel(h, i) rolling(j)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float qr[128];
			for (int d = 0; d < 64; d++) {
				float c = cos_t[start + i][d], s = sin_t[start + i][d];
				float x1 = (float)q[h][i][d], x2 = (float)q[h][i][d + 64];
				qr[d] = x1 * c - x2 * s;
				qr[d + 64] = x2 * c + x1 * s;
			}
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++)
				acc[d] = 0.0f;
			for (int j = 0; j <= start + i; j++) {
				float sc = 0.0f;
				for (int d = 0; d < 128; d++)
					sc += qr[d] * (float)k_cache[h][j][d];
				sc *= 0.08838834764831845f;
				float mn = fmaxf(m, sc), cr = expf(m - mn), p = expf(sc - mn);
				l = l * cr + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * cr + p * (float)v_cache[h][j][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				out[h][i][d] = (_Float16)(acc[d] / l);
		}
}
