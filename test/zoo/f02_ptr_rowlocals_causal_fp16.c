/* Causal attention over flat fp16 pointers of [B][H][N][D] (#define D 128): pointer locals
 * for the rows (qi = q + ((b * H + h) * N + i) * D, kb = k + (b * H + h) * N * D), scale
 * computed before the region, the dot recomputed in each of the three passes. */
#include <math.h>
#define D 128
/* q, k, v, o: [B, H, N, D] contiguous, fp16; causal. */
void causal_attention(int B, int H, int N, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(causal_attention) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const _Float16 *qi = q + ((b * H + h) * N + i) * D;
				const _Float16 *kb = k + (b * H + h) * N * D;
				const _Float16 *vb = v + (b * H + h) * N * D;
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)qi[d] * (float)kb[j * D + d];
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)qi[d] * (float)kb[j * D + d];
					l += expf(s * scale - m);
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int e = 0; e < D; e++)
							s += (float)qi[e] * (float)kb[j * D + e];
						acc += expf(s * scale - m) / l * (float)vb[j * D + d];
					}
					o[((b * H + h) * N + i) * D + d] = (_Float16)acc;
				}
			}
}
