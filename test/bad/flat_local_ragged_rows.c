/* a flat N x N scratch matrix whose rows are filled to a length read from an array: fusecc
 * cannot show j < N, so S[i * N + j] does not read as S[i][j] */
void f(int B, int N, const int len[B], const float x[B][N], float y[B][N])
{
#pragma fuse kernel(k) parallel(b)
	for (int b = 0; b < B; b++) {
		float S[N * N];
		for (int i = 0; i < N; i++)
			for (int j = 0; j < len[b]; j++)
				S[i * N + j] = x[b][i] * x[b][j];
		for (int i = 0; i < N; i++) {
			float s = 0.0f;
			for (int j = 0; j < len[b]; j++)
				s += S[i * N + j];
			y[b][i] = s;
		}
	}
}
