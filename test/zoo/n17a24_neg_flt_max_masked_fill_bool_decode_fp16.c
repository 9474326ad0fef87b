/* Decode with masked_fill(~mask, -FLT_MAX) (torch.finfo(float32).min) from a _Bool key mask;
 * a row with every key masked: all scores -FLT_MAX, C gives the uniform average. D = 128. */
#include <float.h>
#include <math.h>

void decode_finfo_min(int B, int H, int L, const _Bool kmask[B][L], const _Float16 q[B][H][128],
		      const _Float16 k[B][H][L][128], const _Float16 v[B][H][L][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(decode_finfo_min) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float w[L];
			float mx = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				w[j] = kmask[b][j] ? s * 0.08838834764831845f : -FLT_MAX;
				mx = fmaxf(mx, w[j]);
			}
			float den = 0.0f;
			for (int j = 0; j < L; j++) { w[j] = expf(w[j] - mx); den += w[j]; }
			for (int d = 0; d < 128; d++) {
				float a = 0.0f;
				for (int j = 0; j < L; j++) a += w[j] * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(a / den);
			}
		}
}
