/* onnxruntime-style decode (past KV present buffers, GQA by n / factor) where the softmax follows
 * ComputeAttentionSoftmaxInplace: max = probs[0], loop from 1, exp in place, sum, divide in place; split-k clause. */
#include <math.h>
void ort_decode(int B, int NH, int KVH, int total, const _Float16 Q[B][NH][128], const _Float16 present_key[B][KVH][total][128],
		const _Float16 present_value[B][KVH][total][128], _Float16 out[B][NH][128])
{
	const float alpha = 0.08838834764831845f;
	const int factor = NH / KVH;
#pragma fuse kernel(ort_decode) parallel(b, n) splitk(j)
	for (int b = 0; b < B; b++)
		for (int n = 0; n < NH; n++) {
			float probs[total];
			for (int j = 0; j < total; j++) {
				float x = 0.0f;
				for (int d = 0; d < 128; d++) x += (float)Q[b][n][d] * (float)present_key[b][n / factor][j][d];
				probs[j] = x * alpha;
			}
			float max = probs[0];
			for (int j = 1; j < total; j++) if (probs[j] > max) max = probs[j];
			float sum = 0.0f;
			for (int j = 0; j < total; j++) { probs[j] = expf(probs[j] - max); sum += probs[j]; }
			for (int j = 0; j < total; j++) probs[j] /= sum;
			for (int d = 0; d < 128; d++) {
				float o = 0.0f;
				for (int j = 0; j < total; j++) o += probs[j] * (float)present_value[b][n / factor][j][d];
				out[b][n][d] = (_Float16)o;
			}
		}
}
