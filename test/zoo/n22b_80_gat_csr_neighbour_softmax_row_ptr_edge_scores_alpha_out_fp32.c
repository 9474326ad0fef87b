/* GAT's edge softmax over each node's neighbours in CSR form (row_ptr, scores per edge), written by
 * a GNN engineer: alpha[e] = softmax over e in [row_ptr[i], row_ptr[i+1]) of leakyrelu(score[e]). */
#include <math.h>
#include <stdint.h>

void edge_softmax(int N, int NE, float slope, const int64_t row_ptr[N + 1], const float score[NE], float alpha[NE])
{
#pragma fuse kernel(edge_softmax) parallel(i)
	for (int i = 0; i < N; i++) {
		float m = -INFINITY;
		for (int64_t e = row_ptr[i]; e < row_ptr[i + 1]; e++) {
			const float s = score[e] > 0.0f ? score[e] : slope * score[e];
			m = fmaxf(m, s);
		}
		float z = 0.0f;
		for (int64_t e = row_ptr[i]; e < row_ptr[i + 1]; e++) {
			const float s = score[e] > 0.0f ? score[e] : slope * score[e];
			z += expf(s - m);
		}
		for (int64_t e = row_ptr[i]; e < row_ptr[i + 1]; e++) {
			const float s = score[e] > 0.0f ? score[e] : slope * score[e];
			alpha[e] = expf(s - m) / z;
		}
	}
}
