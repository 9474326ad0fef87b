/* A PyTorch-eager port by someone who keeps torch's op names as C helpers: bmm_qkT(S, q, k, scale),
 * causal_mask_(S) (masked_fill with -inf above the diagonal), softmax_(S) in place, bmm(O, S, v).
 * Head size as `enum { D = 64 }`, fp16 storage, S is a per-(b, h) N x N VLA. */
#include <math.h>
enum { D = 64 };
static void bmm_qkT(int n, float S[n][n], const _Float16 q[n][D], const _Float16 k[n][D], float scale)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			float acc = 0.f;
			for (int d = 0; d < D; d++) acc += (float)q[i][d] * (float)k[j][d];
			S[i][j] = acc * scale;
		}
}
static void causal_mask_(int n, float S[n][n])
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) S[i][j] = -INFINITY;
}
static void softmax_(int n, float S[n][n])
{
	for (int i = 0; i < n; i++) {
		float m = -INFINITY;
		for (int j = 0; j < n; j++) m = fmaxf(m, S[i][j]);
		float z = 0.f;
		for (int j = 0; j < n; j++) { S[i][j] = expf(S[i][j] - m); z += S[i][j]; }
		for (int j = 0; j < n; j++) S[i][j] = S[i][j] / z;
	}
}
static void bmm(int n, _Float16 O[n][D], float S[n][n], const _Float16 v[n][D])
{
	for (int i = 0; i < n; i++)
		for (int d = 0; d < D; d++) {
			float acc = 0.f;
			for (int j = 0; j < n; j++) acc += S[i][j] * (float)v[j][d];
			O[i][d] = (_Float16)acc;
		}
}
void sdpa_eager(int B, int H, int N, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D], const _Float16 v[B][H][N][D],
		_Float16 out[B][H][N][D])
{
	const float scale = 0.125f;
#pragma fuse kernel(sdpa_eager) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float S[N][N];
			bmm_qkT(N, S, q[b][h], k[b][h], scale);
			causal_mask_(N, S);
			softmax_(N, S);
			bmm(N, out[b][h], S, v[b][h]);
		}
}
