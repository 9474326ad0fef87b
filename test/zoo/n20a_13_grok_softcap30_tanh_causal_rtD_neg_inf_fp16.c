/* Grok-1 style attention: logits capped with 30 * tanh(logits / 30) after scaling, causal with -INFINITY
 * set after the cap, run-time head dim D, fp16 q/k/v, output [B][N][H][D]. */
#include <math.h>
void grok_attn(int B, int H, int N, int D, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *out)
{
	const float cap = 30.0f;
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(grok_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float lg[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[((b * N + i) * H + h) * D + d] * (float)k[((b * N + j) * H + h) * D + d];
					s = cap * tanhf(s * scale / cap);
					if (j > i) s = -INFINITY;
					lg[j] = s;
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, lg[j]);
				float se = 0.0f;
				for (int j = 0; j < N; j++) se += expf(lg[j] - mx);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += expf(lg[j] - mx) * (float)v[((b * N + j) * H + h) * D + d];
					out[((b * N + i) * H + h) * D + d] = (_Float16)(acc / se);
				}
			}
}
