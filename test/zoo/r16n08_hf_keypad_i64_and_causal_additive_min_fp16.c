/* HF LlamaAttention eager port: 2D attention_mask int64 [B][N] (1 keep, 0 pad) combined with the
 * causal mask as an additive -65504 (finfo(fp16).min), scale applied to q first; D=128. */
#include <math.h>
#include <stdint.h>

void hf_pad_causal(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		   const _Float16 v[B][H][N][128], const int64_t attention_mask[B][N], _Float16 o[B][H][N][128])
{
	const float scaling = 0.08838834764831845f;
#pragma fuse kernel(hf_pad_causal) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++) dot += ((float)q[b][h][i][d] * scaling) * (float)k[b][h][j][d];
					float bias = (j > i || attention_mask[b][j] == 0) ? -65504.0f : 0.0f;
					w[j] = dot + bias;
					mx = fmaxf(mx, w[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { w[j] = expf(w[j] - mx); sum += w[j]; }
				for (int j = 0; j < N; j++) w[j] /= sum;
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += w[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)a;
				}
			}
}
