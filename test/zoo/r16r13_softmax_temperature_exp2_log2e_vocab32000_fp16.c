/* Sampling softmax with temperature, written by an inference engineer with exp2f and log2(e)
 * folded into 1/temperature; fp16 logits, fp32 probs, Llama vocabulary 32000. */
#include <math.h>

void temp_softmax(int B, float temperature, const _Float16 logits[B][32000], float probs[B][32000])
{
	const float k = 1.4426950408889634f / temperature;
#pragma fuse kernel(temp_softmax) parallel(b)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int v = 0; v < 32000; v++) mx = fmaxf(mx, (float)logits[b][v] * k);
		float sum = 0.0f;
		for (int v = 0; v < 32000; v++) sum += exp2f((float)logits[b][v] * k - mx);
		const float inv = 1.0f / sum;
		for (int v = 0; v < 32000; v++) probs[b][v] = exp2f((float)logits[b][v] * k - mx) * inv;
	}
}
