/* ALiBi / relative bias computed from position ids (int64 [B][N], as after left padding in
 * generate()), slopes from an array, causal by position (pos_k <= pos_q) rather than index;
 * bf16, run-time head dim. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void alibi_posids(int B, int H, int N, int Dh, const int64_t position_ids[B][N], const float slopes[H],
		  const fusecc_bf16 q[B][H][N][Dh], const fusecc_bf16 k[B][H][N][Dh], const fusecc_bf16 v[B][H][N][Dh], fusecc_bf16 o[B][H][N][Dh])
{
	const float inv_sqrt = 1.0f / sqrtf((float)Dh);
#pragma fuse kernel(alibi_posids) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < Dh; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * inv_sqrt + slopes[h] * (float)(position_ids[b][j] - position_ids[b][i]);
					if (position_ids[b][j] > position_ids[b][i]) s = -INFINITY;
					mx = fmaxf(mx, s);
				}
				float den = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < Dh; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * inv_sqrt + slopes[h] * (float)(position_ids[b][j] - position_ids[b][i]);
					if (position_ids[b][j] > position_ids[b][i]) s = -INFINITY;
					den += expf(s - mx);
				}
				for (int d = 0; d < Dh; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) {
						float s = 0.0f;
						for (int e = 0; e < Dh; e++) s += fusecc_bf16_to_float(q[b][h][i][e]) * fusecc_bf16_to_float(k[b][h][j][e]);
						s = s * inv_sqrt + slopes[h] * (float)(position_ids[b][j] - position_ids[b][i]);
						if (position_ids[b][j] > position_ids[b][i]) s = -INFINITY;
						a += expf(s - mx) / den * fusecc_bf16_to_float(v[b][h][j][d]);
					}
					o[b][h][i][d] = fusecc_float_to_bf16(a);
				}
			}
}
