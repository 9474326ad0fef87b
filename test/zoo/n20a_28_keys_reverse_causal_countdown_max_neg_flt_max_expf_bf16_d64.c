/* Keys walked from the query back to 0 (a "most recent first" habit from decode loops), max seeded with
 * -FLT_MAX, the P.V in a second countdown over the same keys. */
#include <math.h>
#include <float.h>
#include "fusecc.h"
void rev_attn(int B, int H, int N, const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 k[B][H][N][64], const fusecc_bf16 v[B][H][N][64],
	      fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(rev_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float mx = -FLT_MAX;
				for (int j = i; j >= 0; j--) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					sc[j] = s * 0.125f;
					mx = sc[j] > mx ? sc[j] : mx;
				}
				float l = 0.0f;
				for (int j = i; j >= 0; j--) { sc[j] = expf(sc[j] - mx); l += sc[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = i; j >= 0; j--) acc += sc[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(acc / l);
				}
			}
}
