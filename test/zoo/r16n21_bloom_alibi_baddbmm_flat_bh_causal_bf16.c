/* HF Bloom eager attention port: heads flattened into batch (q[B*H][N][D]), alibi tensor built as
 * [B*H][1][N] and added via baddbmm(beta=1, alpha=inv_norm_factor); causal via masked_fill with
 * the dtype min; D=64; bf16. */
#include <math.h>
#include "fusecc.h"

void bloom_attn(int BH, int N, float inv_norm_factor, const fusecc_bf16 q[BH][N][64], const fusecc_bf16 k[BH][N][64],
		const fusecc_bf16 v[BH][N][64], const float alibi[BH][1][N], fusecc_bf16 ctx[BH][N][64])
{
#pragma fuse kernel(bloom_attn) parallel(bh, i)
	for (int bh = 0; bh < BH; bh++)
		for (int i = 0; i < N; i++) {
			float sc[N];
			float mx = -INFINITY;
			for (int j = 0; j < N; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 64; d++) dot += fusecc_bf16_to_float(q[bh][i][d]) * fusecc_bf16_to_float(k[bh][j][d]);
				float s = alibi[bh][0][j] + inv_norm_factor * dot;
				if (j > i) s = -3.3895313892515355e38f;
				sc[j] = s;
				if (s > mx) mx = s;
			}
			float den = 0.0f;
			for (int j = 0; j < N; j++) { sc[j] = expf(sc[j] - mx); den += sc[j]; }
			for (int d = 0; d < 64; d++) {
				float a = 0.0f;
				for (int j = 0; j < N; j++) a += (sc[j] / den) * fusecc_bf16_to_float(v[bh][j][d]);
				ctx[bh][i][d] = fusecc_float_to_bf16(a);
			}
		}
}
