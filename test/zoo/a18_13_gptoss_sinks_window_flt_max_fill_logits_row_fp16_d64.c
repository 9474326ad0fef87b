/* gpt-oss reference ported to C: per-head sink logit joins the softmax as an extra column
 * (concatenated, then dropped after the softmax), sliding window masked with -FLT_MAX instead of
 * -inf, logits kept in a row then normalised in place. sm_scale passed in. */
#include <float.h>
#include <math.h>

void sdpa_sinks(int B, int H, int T, int W, const _Float16 Q[B][T][H][64], const _Float16 K[B][T][H][64],
		const _Float16 V[B][T][H][64], const float S[H], float sm_scale, _Float16 out[B][T][H][64])
{
#pragma fuse kernel(sdpa_sinks) parallel(b, t, h)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++)
			for (int h = 0; h < H; h++) {
				float logits[T];
				float mx = S[h];
				for (int u = 0; u < T; u++) {
					float qk = 0.0f;
					for (int d = 0; d < 64; d++) qk += (float)Q[b][t][h][d] * (float)K[b][u][h][d];
					qk *= sm_scale;
					if (u > t || u < t - W + 1) qk = -FLT_MAX;
					logits[u] = qk;
					if (qk > mx) mx = qk;
				}
				float denom = expf(S[h] - mx);
				for (int u = 0; u < T; u++) { logits[u] = expf(logits[u] - mx); denom += logits[u]; }
				for (int u = 0; u < T; u++) logits[u] /= denom;
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int u = 0; u < T; u++) acc += logits[u] * (float)V[b][u][h][d];
					out[b][t][h][d] = (_Float16)acc;
				}
			}
}
