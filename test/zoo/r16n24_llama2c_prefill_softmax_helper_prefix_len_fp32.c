/* llama2.c's attention turned into a prefill by a student: scores into att[N], the repo's
 * softmax(x, size) helper called with size pos + 1, then the weighted sum of values; fp32, hs=64. */
#include <math.h>

static void softmax(float *x, int size)
{
	float max_val = x[0];
	for (int i = 1; i < size; i++) if (x[i] > max_val) max_val = x[i];
	float sum = 0.0f;
	for (int i = 0; i < size; i++) { x[i] = expf(x[i] - max_val); sum += x[i]; }
	for (int i = 0; i < size; i++) x[i] /= sum;
}

void l2c_prefill(int n_heads, int seq_len, const float q[seq_len][n_heads][64], const float kc[seq_len][n_heads][64],
		 const float vc[seq_len][n_heads][64], float xb[seq_len][n_heads][64])
{
#pragma fuse kernel(l2c_prefill) parallel(pos, h)
	for (int pos = 0; pos < seq_len; pos++)
		for (int h = 0; h < n_heads; h++) {
			float att[seq_len];
			for (int t = 0; t <= pos; t++) {
				float score = 0.0f;
				for (int i = 0; i < 64; i++) score += q[pos][h][i] * kc[t][h][i];
				att[t] = score / sqrtf(64.0f);
			}
			softmax(att, pos + 1);
			for (int i = 0; i < 64; i++) {
				float x = 0.0f;
				for (int t = 0; t <= pos; t++) x += att[t] * vc[t][h][i];
				xb[pos][h][i] = x;
			}
		}
}
