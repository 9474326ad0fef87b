/* Decode attention, fp32, literal head dim 128, one query row per (b, h).
 * Style: key loop named n and dim loop named e; scale and log2e applied inside the loop
 * (x = dot * scale * 1.44269504f), exp2f; ternary max; scores in a local x[L];
 * d-outer P.V; rolling(n) rather than split-k. */
#include <math.h>

void decode_fp32(int B, int H, int L, float scale,
		 const float q[B][H][128], const float k[B][H][L][128],
		 const float v[B][H][L][128], float o[B][H][128])
{
#pragma fuse kernel(decode_fp32) parallel(b, h) rolling(n)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float x[L];
			float mx = -INFINITY;
			for (int n = 0; n < L; n++) {
				float dot = 0.0f;
				for (int e = 0; e < 128; e++)
					dot += q[b][h][e] * k[b][h][n][e];
				x[n] = dot * scale * 1.44269504f;
				mx = x[n] > mx ? x[n] : mx;
			}
			float den = 0.0f;
			for (int n = 0; n < L; n++) {
				x[n] = exp2f(x[n] - mx);
				den += x[n];
			}
			for (int e = 0; e < 128; e++) {
				float acc = 0.0f;
				for (int n = 0; n < L; n++)
					acc += x[n] * v[b][h][n][e];
				o[b][h][e] = acc / den;
			}
		}
}
