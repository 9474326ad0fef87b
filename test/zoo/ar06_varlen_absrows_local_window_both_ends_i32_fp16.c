/* ar06_varlen_absrows_local_window_both_ends_i32_fp16.c: bidirectional local attention
 * (Longformer's sliding window, an encoder's band) over a packed batch, fp16, head dim 64.
 * Style: absolute token rows from int32 cu_seqlens; the band clamped at both ends of the
 * sequence with two ternaries, `lo = t - W < cu_seqlens[s] ? cu_seqlens[s] : t - W;` and
 * `hi = t + W + 1 > cu_seqlens[s + 1] ? cu_seqlens[s + 1] : t + W + 1;`, keys [lo, hi). */
#include <math.h>
#include <stdint.h>

void band_varlen(int nseq, int ntok, int H, int W, float scale, const int32_t cu_seqlens[nseq + 1],
		 const _Float16 q[ntok][H][64], const _Float16 k[ntok][H][64],
		 const _Float16 v[ntok][H][64], _Float16 o[ntok][H][64])
{
#pragma fuse kernel(band_varlen) parallel(s, h, t) rolling(u)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++)
			for (int t = cu_seqlens[s]; t < cu_seqlens[s + 1]; t++) {
				const int lo = t - W < cu_seqlens[s] ? cu_seqlens[s] : t - W;
				const int hi = t + W + 1 > cu_seqlens[s + 1] ? cu_seqlens[s + 1] : t + W + 1;
				float m = -INFINITY;
				for (int u = lo; u < hi; u++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++)
						x += (float)q[t][h][d] * (float)k[u][h][d];
					m = fmaxf(m, x * scale);
				}
				float z = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int u = lo; u < hi; u++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++)
						x += (float)q[t][h][d] * (float)k[u][h][d];
					float p = expf(x * scale - m);
					z += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * (float)v[u][h][d];
				}
				for (int d = 0; d < 64; d++)
					o[t][h][d] = (_Float16)(acc[d] / z);
			}
}
