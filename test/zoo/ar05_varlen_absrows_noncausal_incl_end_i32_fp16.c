/* ar05_varlen_absrows_noncausal_incl_end_i32_fp16.c: bidirectional (encoder, ViT with
 * packed images) varlen attention, fp16, head dim 64.
 * Style: absolute rows with inclusive ends, as a port from a reference that keeps the
 * last row of each sequence: `int last = cu_seqlens[s + 1] - 1; for (t = cu_seqlens[s];
 * t <= last; t++)` and the same for the keys; int32 offsets; max, then sum and P.V. */
#include <math.h>
#include <stdint.h>

void packed_encoder_attn(int nseq, int ntok, int H, float scale, const int32_t cu_seqlens[nseq + 1],
			 const _Float16 q[ntok][H][64], const _Float16 k[ntok][H][64],
			 const _Float16 v[ntok][H][64], _Float16 o[ntok][H][64])
{
#pragma fuse kernel(packed_encoder_attn) parallel(s, h, t) rolling(u)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++) {
			const int first = cu_seqlens[s], last = cu_seqlens[s + 1] - 1;
			for (int t = first; t <= last; t++) {
				float mx = -INFINITY;
				for (int u = first; u <= last; u++) {
					float sc = 0.0f;
					for (int d = 0; d < 64; d++)
						sc += (float)q[t][h][d] * (float)k[u][h][d];
					mx = fmaxf(mx, sc * scale);
				}
				float sum = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int u = first; u <= last; u++) {
					float sc = 0.0f;
					for (int d = 0; d < 64; d++)
						sc += (float)q[t][h][d] * (float)k[u][h][d];
					float p = expf(sc * scale - mx);
					sum += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * (float)v[u][h][d];
				}
				for (int d = 0; d < 64; d++)
					o[t][h][d] = (_Float16)(acc[d] / sum);
			}
		}
}
