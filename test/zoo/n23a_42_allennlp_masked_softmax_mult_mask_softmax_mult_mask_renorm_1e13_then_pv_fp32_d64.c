/* AllenNLP's util.masked_softmax (memory_efficient=False), as a generation of NLP code
 * wrote attention: result = softmax(vector * mask); result = result * mask;
 * result = result / (result.sum(dim) + 1e-13); then the weighted sum of values.
 * mask is a float 0/1 key mask per batch row. fp32, D = 64. */
#include <math.h>

void allennlp_attention(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
			const float v[B][H][N][64], const float mask[B][N], float out[B][H][N][64])
{
#pragma fuse kernel(allennlp_attention) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float vec[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += q[b][h][i][d] * k[b][h][j][d];
					vec[j] = s / 8.0f * mask[b][j];
					mx = fmaxf(mx, vec[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) {
					vec[j] = expf(vec[j] - mx);
					z += vec[j];
				}
				float z2 = 0.0f;
				for (int j = 0; j < N; j++) {
					vec[j] = vec[j] / z * mask[b][j];
					z2 += vec[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += vec[j] / (z2 + 1e-13f) * v[b][h][j][d];
					out[b][h][i][d] = acc;
				}
			}
}
