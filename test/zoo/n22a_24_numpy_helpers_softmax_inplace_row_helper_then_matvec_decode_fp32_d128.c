/* llama2.c-like decode by someone who factors numpy-style helpers: softmax(x, n) in place on the
 * att row, then a weighted sum of values; fp32 cache [B][T][H][D]. */
#include <math.h>

static void softmax(float *x, int n)
{
	float max_val = x[0];
	for (int i = 1; i < n; i++)
		if (x[i] > max_val) max_val = x[i];
	float sum = 0.0f;
	for (int i = 0; i < n; i++) {
		x[i] = expf(x[i] - max_val);
		sum += x[i];
	}
	for (int i = 0; i < n; i++) x[i] /= sum;
}

void decode_step(int B, int H, int T, const float q[B][H][128], const float kc[B][T][H][128],
		 const float vc[B][T][H][128], float out[B][H][128])
{
#pragma fuse kernel(decode_step) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float att[T];
			for (int t = 0; t < T; t++) {
				float score = 0.0f;
				for (int d = 0; d < 128; d++) score += q[b][h][d] * kc[b][t][h][d];
				att[t] = score / sqrtf(128.0f);
			}
			softmax(att, T);
			for (int d = 0; d < 128; d++) {
				float xb = 0.0f;
				for (int t = 0; t < T; t++) xb += att[t] * vc[b][t][h][d];
				out[b][h][d] = xb;
			}
		}
}
