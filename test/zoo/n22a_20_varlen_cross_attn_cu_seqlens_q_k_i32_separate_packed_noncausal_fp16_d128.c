/* Varlen cross-attention (encoder-decoder with packed batches): queries packed by cu_seqlens_q,
 * keys/values by cu_seqlens_k, both int32, no mask. */
#include <math.h>
#include <stdint.h>

void varlen_cross(int nseq, int total_q, int total_k, int H, const int32_t cu_seqlens_q[nseq + 1],
		  const int32_t cu_seqlens_k[nseq + 1], const _Float16 q[total_q][H][128], const _Float16 k[total_k][H][128],
		  const _Float16 v[total_k][H][128], _Float16 o[total_q][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(varlen_cross) parallel(s, i, h)
	for (int s = 0; s < nseq; s++)
		for (int i = 0; i < cu_seqlens_q[s + 1] - cu_seqlens_q[s]; i++)
			for (int h = 0; h < H; h++) {
				const int qs = cu_seqlens_q[s], ks = cu_seqlens_k[s];
				const int lk = cu_seqlens_k[s + 1] - cu_seqlens_k[s];
				float mx = -INFINITY;
				for (int j = 0; j < lk; j++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++) x += (float)q[qs + i][h][d] * (float)k[ks + j][h][d];
					mx = fmaxf(mx, x * scale);
				}
				float den = 0.0f, acc[128] = {0};
				for (int j = 0; j < lk; j++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++) x += (float)q[qs + i][h][d] * (float)k[ks + j][h][d];
					float p = expf(x * scale - mx);
					den += p;
					for (int d = 0; d < 128; d++) acc[d] += p * (float)v[ks + j][h][d];
				}
				for (int d = 0; d < 128; d++) o[qs + i][h][d] = (_Float16)(acc[d] / den);
			}
}
