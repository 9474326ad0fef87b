/* T5X losses.cross_entropy_with_logits with label smoothing done by common_utils.onehot(on=confidence,
 * off=low_confidence) and the normalizing constant subtracted, plus z_loss * log_z^2 (PaLM z-loss). */
#include <math.h>
#include <stdint.h>
void t5x_xent(int T, int V, float label_smoothing, float z_loss, const float logits[T][V], const int32_t targets[T],
	      float loss[T], float z_loss_out[T])
{
	const float confidence = 1.0f - label_smoothing;
	const float low_confidence = (1.0f - confidence) / (float)(V - 1);
	const float normalizing_constant = -(confidence * logf(confidence) + (float)(V - 1) * low_confidence * logf(low_confidence + 1e-20f));
#pragma fuse kernel(t5x_xent) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, logits[t][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++) s += expf(logits[t][v] - m);
		const float log_z = m + logf(s);
		float l = 0.0f;
		for (int v = 0; v < V; v++) {
			const float soft = v == targets[t] ? confidence : low_confidence;
			l -= soft * (logits[t][v] - log_z);
		}
		const float tz = z_loss * log_z * log_z;
		loss[t] = l - normalizing_constant + tz;
		z_loss_out[t] = tz;
	}
}
