/* c10_for_macro_enum_causal_fp16.c: causal attention by an embedded-C programmer: sizes as
 * an enum, loops through two macros (`FOR(i, n)` without parentheses around n, and
 * `FOR_TO(i, lo, hi)` over [lo, hi] for the causal keys), -FLT_MAX seed, the
 * `x = x > y ? x : y` max.
 * Style: fp16 storage, HEAD_DIM 64 from an enum, scores row, d-outer P.V, rolling(j). */
#include <float.h>
#include <math.h>

enum { HEAD_DIM = 64 };

#define FOR(i, n) for (int i = 0; i < n; i++)
#define FOR_TO(i, lo, hi) for (int i = (lo); i <= (hi); ++i)

void attn_macro(int B, int H, int N, float scale,
		const _Float16 q[B][H][N][HEAD_DIM], const _Float16 k[B][H][N][HEAD_DIM],
		const _Float16 v[B][H][N][HEAD_DIM], _Float16 o[B][H][N][HEAD_DIM])
{
#pragma fuse kernel(attn_macro) parallel(b, h, i) rolling(j)
	FOR(b, B) FOR(h, H) FOR(i, N) {
		float s[N];
		float mx = -FLT_MAX;
		FOR_TO(j, 0, i) {
			float acc = 0.0f;
			FOR(d, HEAD_DIM) acc += (float)q[b][h][i][d] * (float)k[b][h][j][d];
			s[j] = acc * scale;
			mx = mx > s[j] ? mx : s[j];
		}
		float sum = 0.0f;
		FOR_TO(j, 0, i) sum += expf(s[j] - mx);
		FOR(d, HEAD_DIM) {
			float acc = 0.0f;
			FOR_TO(j, 0, i) acc += expf(s[j] - mx) * (float)v[b][h][j][d];
			o[b][h][i][d] = (_Float16)(acc / sum);
		}
	}
}
