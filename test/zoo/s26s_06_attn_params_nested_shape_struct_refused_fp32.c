/* An engine that groups the shape in a struct of its own inside the attention params
 * (`p.shape.seq`): a nested struct, which fusecc refuses at the field (check the message:
 * it says what a struct parameter may hold). */
#include <math.h>

struct attn_shape {
	int heads;
	int seq;
};

struct attn_params {
	struct attn_shape shape;
	float scale;
};

void attn_scores_softmax(struct attn_params p, const float *s_in, float *probs)
{
#pragma fuse kernel(attn_scores_softmax) parallel(h)
	for (int h = 0; h < p.shape.heads; h++) {
		float m = -INFINITY;
		for (int j = 0; j < p.shape.seq; j++)
			m = fmaxf(m, s_in[h * p.shape.seq + j] * p.scale);
		float s = 0.0f;
		for (int j = 0; j < p.shape.seq; j++)
			s += expf(s_in[h * p.shape.seq + j] * p.scale - m);
		for (int j = 0; j < p.shape.seq; j++)
			probs[h * p.shape.seq + j] = expf(s_in[h * p.shape.seq + j] * p.scale - m) / s;
	}
}
