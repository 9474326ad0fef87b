/* Mistral sliding-window decode: attend to keys max(0, pos - W + 1) .. pos with pos = seq_len[b]-1,
 * GQA h / G; written by a llama.cpp contributor with an int lo local and a float scale param. */
#include <math.h>
#include <stdint.h>

void swa_decode(int B, int H, int G, int L, int W, float kq_scale, const int32_t seq_len[B],
		const _Float16 q[B][H][128], const _Float16 k[B][H / G][L][128],
		const _Float16 v[B][H / G][L][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(swa_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int pos = seq_len[b] - 1;
			int lo = pos - W + 1;
			if (lo < 0) lo = 0;
			float kq[L];
			float max = -INFINITY;
			for (int j = lo; j <= pos; j++) {
				float sum = 0.0f;
				for (int d = 0; d < 128; d++) sum += (float)q[b][h][d] * (float)k[b][h / G][j][d];
				kq[j] = sum * kq_scale;
				max = kq[j] > max ? kq[j] : max;
			}
			float S = 0.0f;
			for (int j = lo; j <= pos; j++) { kq[j] = expf(kq[j] - max); S += kq[j]; }
			for (int d = 0; d < 128; d++) {
				float r = 0.0f;
				for (int j = lo; j <= pos; j++) r += kq[j] * (float)v[b][h / G][j][d];
				o[b][h][d] = (_Float16)(r / S);
			}
		}
}
