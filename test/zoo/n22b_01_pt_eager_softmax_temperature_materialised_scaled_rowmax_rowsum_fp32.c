/* PyTorch eager port, op by op, of `F.softmax(logits / temperature, dim=-1)`: a research
 * engineer translating a notebook line by line, every intermediate tensor materialised
 * (scaled = logits / T; rowmax = scaled.amax(-1); e = exp(scaled - rowmax); probs = e / e.sum(-1)). */
#include <math.h>

void softmax_temperature(int N, int V, float temperature, const float logits[N][V], float probs[N][V])
{
	float scaled[N][V];
	float rowmax[N];
	float e[N][V];
	float rowsum[N];
#pragma fuse kernel(softmax_temperature)
	for (int n = 0; n < N; n++) {
		for (int v = 0; v < V; v++)
			scaled[n][v] = logits[n][v] / temperature;
		rowmax[n] = -INFINITY;
		for (int v = 0; v < V; v++)
			rowmax[n] = fmaxf(rowmax[n], scaled[n][v]);
		for (int v = 0; v < V; v++)
			e[n][v] = expf(scaled[n][v] - rowmax[n]);
		rowsum[n] = 0.0f;
		for (int v = 0; v < V; v++)
			rowsum[n] += e[n][v];
		for (int v = 0; v < V; v++)
			probs[n][v] = e[n][v] / rowsum[n];
	}
}
