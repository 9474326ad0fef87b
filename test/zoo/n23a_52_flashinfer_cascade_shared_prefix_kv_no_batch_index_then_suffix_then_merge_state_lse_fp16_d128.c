/* FlashInfer's cascade inference for a batch that shares one prompt prefix, as its Python
 * reference does it: (1) every request attends to the shared prefix KV (no batch index)
 * giving v_a, s_a (lse); (2) each attends to its own suffix KV (len[b] tokens) giving v_b,
 * s_b; (3) merge_state: s = logaddexp(s_a, s_b), v = v_a * exp(s_a - s) + v_b * exp(s_b - s).
 * Decode (one query per request and head), fp16 values, fp32 states. */
#include <math.h>
#include <stdint.h>

void cascade_decode(int B, int H, int P, int S, float sm_scale, const _Float16 q[B][H][128], const _Float16 pk[H][P][128],
		    const _Float16 pv[H][P][128], const _Float16 sk[B][H][S][128], const _Float16 sv[B][H][S][128],
		    const int32_t len[B], float v_a[B][H][128], float s_a[B][H], float v_b[B][H][128], float s_b[B][H],
		    _Float16 out[B][H][128])
{
#pragma fuse kernel(prefix_attn) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int j = 0; j < P; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)pk[h][j][d];
				s *= sm_scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * (float)pv[h][j][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				v_a[b][h][d] = acc[d] / l;
			s_a[b][h] = m + logf(l);
		}
#pragma fuse kernel(suffix_attn) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int j = 0; j < len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)sk[b][h][j][d];
				s *= sm_scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * (float)sv[b][h][j][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				v_b[b][h][d] = acc[d] / l;
			s_b[b][h] = m + logf(l);
		}
#pragma fuse kernel(merge_state) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const float sa = s_a[b][h], sb = s_b[b][h];
			const float mx = fmaxf(sa, sb);
			const float s = mx + logf(expf(sa - mx) + expf(sb - mx));
			const float wa = expf(sa - s), wb = expf(sb - s);
			for (int d = 0; d < 128; d++)
				out[b][h][d] = (_Float16)(v_a[b][h][d] * wa + v_b[b][h][d] * wb);
		}
}
