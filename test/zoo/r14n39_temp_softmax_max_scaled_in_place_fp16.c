/* Sampling with temperature: max of the raw logits, then `mx *= inv_t;` (the max of the scaled
 * row for inv_t > 0), then the softmax of logits * inv_t. */
#include <math.h>
void temp_softmax(int R, int V, float temperature, const _Float16 logits[R][V], float probs[R][V])
{
#pragma fuse kernel(temp_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		const float inv_t = 1.0f / temperature;
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, (float)logits[r][v]);
		mx *= inv_t;
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf((float)logits[r][v] * inv_t - mx);
		for (int v = 0; v < V; v++) probs[r][v] = expf((float)logits[r][v] * inv_t - mx) / z;
	}
}
