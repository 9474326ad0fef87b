/* LSE over logits that live in two tensors (a tied embedding's vocab plus added special
 * tokens' head, or two tensor-parallel shards gathered on one rank): each pass walks shard
 * a then shard b, as someone writing torch.cat-free code does. */
#include <math.h>

void lse_two_shards(int R, int V1, int V2, const float a[R][V1], const float b[R][V2], float lse[R])
{
#pragma fuse kernel(lse_two_shards) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < V1; c++)
			m = fmaxf(m, a[r][c]);
		for (int c = 0; c < V2; c++)
			m = fmaxf(m, b[r][c]);
		float s = 0.0f;
		for (int c = 0; c < V1; c++)
			s += expf(a[r][c] - m);
		for (int c = 0; c < V2; c++)
			s += expf(b[r][c] - m);
		lse[r] = m + logf(s);
	}
}
