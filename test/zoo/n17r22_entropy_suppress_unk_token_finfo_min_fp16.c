/* Generation-time logits processor + entropy: the <unk> token (id unk_id, usually 0) is
 * suppressed with torch.finfo(float32).min (-FLT_MAX) as HF's SuppressTokensLogitsProcessor
 * does, then the entropy of the softmax is logged: H = log z - sum p (x - m) / z. fp16 logits. */
#include <float.h>
#include <math.h>

void entropy_suppress_unk(int B, int V, int unk_id, const _Float16 logits[B][V], float ent[B])
{
#pragma fuse kernel(entropy_suppress_unk) parallel(b) rolling(v)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			const float x = v == unk_id ? -FLT_MAX : (float)logits[b][v];
			m = fmaxf(m, x);
		}
		float z = 0.0f, e = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = v == unk_id ? -FLT_MAX : (float)logits[b][v];
			const float p = expf(x - m);
			z += p;
			e += p * (x - m);
		}
		ent[b] = logf(z) - e / z;
	}
}
