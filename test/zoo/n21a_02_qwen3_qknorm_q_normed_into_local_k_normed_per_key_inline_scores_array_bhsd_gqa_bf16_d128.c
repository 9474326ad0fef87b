/* Qwen3 attention ported op by op: q_norm / k_norm (RMSNorm over head_dim with weights, eps 1e-6)
 * applied inside the region before the dot: the q row normalised into a local, each k row's
 * inverse rms computed in the key loop; scores materialised, causal, GQA, [B][H][N][D] bf16. */
#include <math.h>
#include "fusecc.h"

void qwen3_attn(int B, int H, int KVH, int N, const fusecc_bf16 q[B][H][N][128],
		const fusecc_bf16 k[B][KVH][N][128], const fusecc_bf16 v[B][KVH][N][128],
		const float q_norm_w[128], const float k_norm_w[128], fusecc_bf16 out[B][H][N][128])
{
	const float eps = 1e-6f;
	const float scaling = 0.08838834764831845f;
#pragma fuse kernel(qwen3_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int g = h / (H / KVH);
				float qn[128];
				float var = 0.0f;
				for (int d = 0; d < 128; d++) {
					float x = fusecc_bf16_to_float(q[b][h][i][d]);
					var += x * x;
				}
				float rq = 1.0f / sqrtf(var / 128 + eps);
				for (int d = 0; d < 128; d++)
					qn[d] = fusecc_bf16_to_float(q[b][h][i][d]) * rq * q_norm_w[d];
				float attn[N];
				for (int j = 0; j < N; j++) {
					float kv = 0.0f;
					for (int d = 0; d < 128; d++) {
						float x = fusecc_bf16_to_float(k[b][g][j][d]);
						kv += x * x;
					}
					float rk = 1.0f / sqrtf(kv / 128 + eps);
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += qn[d] * (fusecc_bf16_to_float(k[b][g][j][d]) * rk * k_norm_w[d]);
					attn[j] = j <= i ? s * scaling : -INFINITY;
				}
				float m = -INFINITY;
				for (int j = 0; j < N; j++) m = fmaxf(m, attn[j]);
				float z = 0.0f;
				for (int j = 0; j < N; j++) z += expf(attn[j] - m);
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += expf(attn[j] - m) / z * fusecc_bf16_to_float(v[b][g][j][d]);
					out[b][h][i][d] = fusecc_float_to_bf16(a);
				}
			}
}
