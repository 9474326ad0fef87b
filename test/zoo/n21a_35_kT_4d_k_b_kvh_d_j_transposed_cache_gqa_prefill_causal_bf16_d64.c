/* K cache kept transposed per head, kT[B][KVH][64][N] (so q @ kT is a plain matmul, a
 * numpy-minded port of `q @ k.transpose(-1, -2)` that transposes once), GQA h / G, causal, bf16. */
#include <math.h>
#include "fusecc.h"

void kt_attn(int B, int H, int G, int N, const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 kT[B][H / G][64][N],
	     const fusecc_bf16 v[B][H / G][N][64], fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(kt_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N], mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(kT[b][h / G][d][j]);
					w[j] = s * 0.125f;
					mx = fmaxf(mx, w[j]);
				}
				float z = 0.0f;
				for (int j = 0; j <= i; j++) z += expf(w[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) acc += expf(w[j] - mx) / z * fusecc_bf16_to_float(v[b][h / G][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(acc);
				}
			}
}
