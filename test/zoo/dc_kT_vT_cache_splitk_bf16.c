/* Decode against a cache kept transposed, K and V both [B][H][D][L] (a kernel author's C
 * reference where the cache is written column by column as tokens arrive), bf16, fp32
 * query, the length per sequence from an array, split-k over the cache. */
#include <math.h>
#include "fusecc.h"

#define D 128

void decode_kvT(int B, int H, int L, float scale, const int len[B], const float q[B][H][D],
                const fusecc_bf16 kT[B][H][D][L], const fusecc_bf16 vT[B][H][D][L], float out[B][H][D])
{
#pragma fuse kernel(decode_kvT) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += q[b][h][d] * fusecc_bf16_to_float(kT[b][h][d][j]);
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f;
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += q[b][h][d] * fusecc_bf16_to_float(kT[b][h][d][j]);
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * fusecc_bf16_to_float(vT[b][h][d][j]);
			}
			for (int d = 0; d < D; d++)
				out[b][h][d] = len[b] > 0 ? acc[d] / l : 0.0f;
		}
}
