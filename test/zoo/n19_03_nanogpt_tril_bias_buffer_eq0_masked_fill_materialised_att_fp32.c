/* nanoGPT CausalSelfAttention slow path: att = (q @ k^T) * (1/sqrt(hs)); att.masked_fill(bias[:T,:T] == 0, -inf);
 * softmax; y = att @ v.  The registered buffer bias is tril(ones(block_size, block_size)) passed in. */
#include <math.h>
void nanogpt_attn(int B, int nh, int T, int hs, int block_size, const float q[B][nh][T][hs], const float k[B][nh][T][hs],
		  const float v[B][nh][T][hs], const float bias[block_size][block_size], float y[B][nh][T][hs])
{
	const float scale = 1.0f / sqrtf((float)hs);
#pragma fuse kernel(nanogpt_attn) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < nh; h++)
			for (int t = 0; t < T; t++) {
				float att[T];
				for (int t2 = 0; t2 < T; t2++) {
					float s = 0.0f;
					for (int c = 0; c < hs; c++) s += q[b][h][t][c] * k[b][h][t2][c];
					att[t2] = s * scale;
					if (bias[t][t2] == 0.0f) att[t2] = -INFINITY;
				}
				float m = -INFINITY;
				for (int t2 = 0; t2 < T; t2++) if (att[t2] > m) m = att[t2];
				float z = 0.0f;
				for (int t2 = 0; t2 < T; t2++) { att[t2] = expf(att[t2] - m); z += att[t2]; }
				for (int t2 = 0; t2 < T; t2++) att[t2] /= z;
				for (int c = 0; c < hs; c++) {
					float acc = 0.0f;
					for (int t2 = 0; t2 < T; t2++) acc += att[t2] * v[b][h][t2][c];
					y[b][h][t][c] = acc;
				}
			}
}
